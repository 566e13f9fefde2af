import { Link } from 'react-router-dom';
import { DocumentPage } from '@/components/layouts/document-page';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { pageMeta } from '@/config/seo';
import { site } from '@/config/site';

export default function FounderRoute() {
  return (
    <>
      <Seo {...pageMeta.founder} />
      <DocumentPage
        eyebrow="Founder Story"
        title="Why we built Lockdrop"
        description={`A payment problem every freelancer knows, solved from ${site.location}.`}
      >
        <h2>Delivered, then ghosted</h2>
        <p>
          Lockdrop started with a familiar story. A designer finishes a brand kit, sends the files
          over, and waits. The client is happy, the files are in use — and the invoice sits unpaid
          for weeks. Ask around any creative community in Lagos and you will hear the same thing:
          the work is the easy part; getting paid for it is not.
        </p>
        <p>
          The usual answer is to ask for money up front. But buyers are nervous about paying for
          something they have not seen, and creators are nervous about sending something they have
          not been paid for. Someone has to go first, and whoever goes first carries the risk.
        </p>
        <h2>Let the file wait for the payment</h2>
        <p>
          So we turned it around. With Lockdrop the file waits for the payment. A creator uploads
          the work, sets a price and shares one link. The buyer sees a blurred preview — enough to
          know it is the real thing — pays by card, bank transfer or mobile money, and the file
          unlocks the moment the payment provider confirms it. Nobody has to trust a screenshot of a
          transfer again.
        </p>
        <h2>Built for how people really buy and sell</h2>
        <p>
          Our buyers and sellers are spread across {site.countries} countries, and many of them
          share a few things we designed around from day one:
        </p>
        <ul>
          <li>Payments in local currencies and local methods, not only international cards.</li>
          <li>
            Connections that drop — downloads resume, and a fresh link never means paying twice.
          </li>
          <li>
            Fees that are stated once and shown the same way everywhere, so you always know what you
            keep.
          </li>
          <li>Payouts that arrive on their own, without invoices or follow-up messages.</li>
        </ul>
        <h2>Where we are going</h2>
        <p>
          Lockdrop is for anyone who makes something digital and deserves to be paid for it:
          designers, photographers, musicians, writers, developers, agencies and the businesses that
          hire them. We are a small team in {site.location}, and we read every message.
        </p>
        <p>
          If you have a story like ours, or an idea that would make Lockdrop better,{' '}
          <Link to={paths.contact.getHref()}>we would love to hear it</Link>.
        </p>
        <p className="not-italic">
          <strong>— The founder, {site.name}</strong>
        </p>
      </DocumentPage>
    </>
  );
}
