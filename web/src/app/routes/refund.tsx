import { Link } from 'react-router-dom';
import { DocumentPage } from '@/components/layouts/document-page';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { policies } from '@/config/policies';
import { pageMeta } from '@/config/seo';
import { site } from '@/config/site';

export default function RefundRoute() {
  return (
    <>
      <Seo {...pageMeta.refund} />
      <DocumentPage
        eyebrow="Legal"
        title="Refund Policy"
        description="How refunds work for people who buy files and for sellers on paid plans."
      >
        <h2>Buying a file</h2>
        <p>
          You can ask for a refund within <strong>{policies.buyerRefundWindowHours} hours</strong>{' '}
          of your purchase if:
        </p>
        <ul>
          <li>the file cannot be downloaded, even with a fresh download link, or</li>
          <li>the file is materially different from its title, description or preview.</li>
        </ul>
        <p>
          To ask, <Link to={paths.contact.getHref()}>contact us</Link> with the e-mail address you
          bought with and your payment reference. We check the request with the seller and reply
          within {policies.supportReplyHours} hours. An approved refund goes back to the original
          payment method, and access to the file ends.
        </p>
        <p>
          Because a downloaded file cannot be returned, we do not refund purchases simply because
          you changed your mind.
        </p>
        <h2>Paid plans</h2>
        <ul>
          <li>
            <strong>Monthly plans</strong> can be cancelled at any time. The plan stays active until
            the end of the month you paid for; partial months are not refunded.
          </li>
          <li>
            <strong>Annual plans</strong> cancelled within{' '}
            <strong>{policies.annualPlanRefundDays} days</strong> of payment are refunded pro rata
            for the unused months.
          </li>
        </ul>
        <h2>For sellers</h2>
        <p>
          When a sale is refunded, the amount is deducted from your balance before your next payout.
          If the sale was already paid out, it is deducted from future earnings. See the{' '}
          <Link to={paths.terms.getHref()}>Terms of Service</Link> for fees and payouts.
        </p>
        <h2>Questions</h2>
        <p>
          Write to <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>. Billing
          questions are answered within {policies.billingReplyBusinessDays} business days.
        </p>
      </DocumentPage>
    </>
  );
}
