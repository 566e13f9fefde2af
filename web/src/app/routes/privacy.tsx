import { Link } from 'react-router-dom';
import { DocumentPage } from '@/components/layouts/document-page';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { policies } from '@/config/policies';
import { pageMeta } from '@/config/seo';
import { site } from '@/config/site';

export default function PrivacyRoute() {
  return (
    <>
      <Seo {...pageMeta.privacy} />
      <DocumentPage
        eyebrow="Legal"
        title="Privacy Policy"
        description="What we collect, why we collect it and the choices you have."
      >
        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>Account details:</strong> your name, e-mail address and a securely hashed
            password, plus your profile picture if you add one.
          </li>
          <li>
            <strong>Seller details:</strong> the files you upload, their titles, descriptions and
            prices, and the payout details you give us.
          </li>
          <li>
            <strong>Purchase details:</strong> the buyer’s e-mail address, what was bought, the
            amount, fees and the payment reference. Card and bank details are handled by the payment
            provider and never reach our servers.
          </li>
          <li>
            <strong>Usage:</strong> product views, checkouts and downloads, which power sellers’
            analytics.
          </li>
        </ul>
        <h2>Why we use it</h2>
        <ul>
          <li>To run your account, deliver files to buyers and pay sellers.</li>
          <li>To prevent fraud and keep access to paid files secure.</li>
          <li>To send receipts, download links and messages about your account.</li>
          <li>To meet our legal, tax and accounting obligations.</li>
        </ul>
        <p>We do not sell your personal data and we do not use advertising trackers.</p>
        <h2>Who we share it with</h2>
        <p>
          Only with the services that make Lockdrop work: the payment provider that processes
          checkouts and payouts, and the e-mail service that sends receipts. When you buy a file,
          the seller sees your e-mail address and what you bought.
        </p>
        <h2>How long we keep it</h2>
        <p>
          Account and product data is kept while your account is open. Records of purchases, fees,
          refunds and payouts are kept for at least {policies.recordRetentionYears} years, as our{' '}
          <Link to={paths.terms.getHref()}>Terms of Service</Link> explain.
        </p>
        <h2>Cookies</h2>
        <p>
          We use only the cookies needed to keep you signed in and to protect your session. There
          are no advertising or cross-site tracking cookies.
        </p>
        <h2>Your choices</h2>
        <ul>
          <li>You can see and correct your details in your account settings.</li>
          <li>
            You can ask for a copy of your data, or for your account to be deleted, apart from
            records we must keep by law.
          </li>
          <li>You can sign out of all devices at any time.</li>
        </ul>
        <h2>Contact</h2>
        <p>
          Questions about your privacy? Write to{' '}
          <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a> or use our{' '}
          <Link to={paths.contact.getHref()}>contact page</Link>. {site.name} is based in{' '}
          {site.location}.
        </p>
      </DocumentPage>
    </>
  );
}
