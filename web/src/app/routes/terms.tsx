import { formatMoney } from '@lockdrop/money';
import { PLANS, formatBps } from '@lockdrop/plans';
import { Link } from 'react-router-dom';
import { DocumentPage } from '@/components/layouts/document-page';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { policies } from '@/config/policies';
import { pageMeta } from '@/config/seo';
import { site } from '@/config/site';
import { useProcessorFeeBps } from '@/lib/payment-mode';

function FeeTable() {
  return (
    <div
      role="region"
      aria-label="Plan fees table"
      tabIndex={0}
      className="relative mt-6 overflow-x-auto rounded-xl ring-1 ring-slate-200"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Plan prices and platform fees</caption>
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Plan
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Monthly
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Yearly
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Platform fee per sale
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {PLANS.map((plan) => (
            <tr key={plan.id} data-plan={plan.id}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                {plan.name}
              </th>
              <td className="px-4 py-3 tabular-nums">
                {formatMoney(plan.monthlyPriceMinor, plan.currency)}
              </td>
              <td className="px-4 py-3 tabular-nums">
                {formatMoney(plan.yearlyPriceMinor, plan.currency)}
              </td>
              <td className="px-4 py-3 tabular-nums">{formatBps(plan.platformFeeBps)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function TermsRoute() {
  const payout = policies.payoutBusinessDays;
  const processorFeeBps = useProcessorFeeBps();
  return (
    <>
      <Seo {...pageMeta.terms} />
      <DocumentPage
        eyebrow="Legal"
        title="Terms of Service"
        description="The agreement between you and Lockdrop when you sell or buy files on the platform."
      >
        <h2>1. About these terms</h2>
        <p>
          {site.name} ({site.location}) lets creators sell digital files through secure payment
          links. By creating an account, listing a file or buying one, you agree to these terms, our{' '}
          <Link to={paths.privacy.getHref()}>Privacy Policy</Link> and our{' '}
          <Link to={paths.refund.getHref()}>Refund Policy</Link>.
        </p>
        <h2>2. Your account</h2>
        <ul>
          <li>
            You must give accurate details and keep your password safe. You are responsible for
            activity on your account.
          </li>
          <li>
            Buyers may purchase with only an e-mail address; downloads are tied to that address.
          </li>
          <li>
            We may suspend accounts that break these terms or put buyers, sellers or the platform at
            risk.
          </li>
        </ul>
        <h2>3. Selling on Lockdrop</h2>
        <ul>
          <li>
            You must own, or have the right to sell, every file you upload, and describe it
            honestly.
          </li>
          <li>
            You may not sell illegal content, malware, stolen material or anything that infringes
            someone else’s rights.
          </li>
          <li>
            You set your own prices. The buyer’s purchase is a contract between you and the buyer;
            Lockdrop processes the payment and delivers the file.
          </li>
        </ul>
        <h2>4. Fees</h2>
        <p>
          Lockdrop charges a platform fee on each sale, set by your plan. The payment provider also
          charges a processing fee of <strong>{formatBps(processorFeeBps)}</strong> per sale. Both
          are deducted before your earnings are paid out. Plan prices are in US dollars.
        </p>
        <FeeTable />
        <p>If we change our fees, we will tell you by e-mail before the change applies to you.</p>
        <h2>5. Payments and payouts</h2>
        <p>
          A purchase is complete when the payment provider confirms it to us. Your earnings from
          confirmed sales are paid out automatically to your payout account within{' '}
          <strong>
            {payout.min}-{payout.max} business days
          </strong>
          . Payouts may be held while we investigate a suspected fraudulent or disputed payment.
        </p>
        <h2>6. Refunds</h2>
        <ul>
          <li>
            Buyers may ask for a refund within{' '}
            <strong>{policies.buyerRefundWindowHours} hours</strong> of purchase when a file cannot
            be downloaded or is materially different from its description. A refunded sale is
            deducted from the seller’s balance and the buyer loses access to the file.
          </li>
          <li>
            Annual plans cancelled within <strong>{policies.annualPlanRefundDays} days</strong> of
            payment are refunded pro rata for the unused months.
          </li>
        </ul>
        <p>
          The details are in the <Link to={paths.refund.getHref()}>Refund Policy</Link>.
        </p>
        <h2>7. Limitation of liability</h2>
        <p>
          To the extent the law allows, Lockdrop’s total liability to you for any claim is limited
          to the fees you paid to Lockdrop in the{' '}
          <strong>{policies.liabilityCapMonths} months</strong> before the event that gave rise to
          the claim. We are not liable for indirect or consequential losses, or for the content of
          files sold by sellers.
        </p>
        <h2>8. Records</h2>
        <p>
          We keep records of purchases, fees, refunds and payouts for at least{' '}
          <strong>{policies.recordRetentionYears} years</strong>, to meet tax and accounting
          obligations and to resolve disputes.
        </p>
        <h2>9. Support</h2>
        <p>
          We answer general questions within <strong>{policies.supportReplyHours} hours</strong> and
          billing questions within{' '}
          <strong>{policies.billingReplyBusinessDays} business days</strong>. Reach us through the{' '}
          <Link to={paths.contact.getHref()}>contact page</Link> or at{' '}
          <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>.
        </p>
        <h2>10. Changes</h2>
        <p>
          We may update these terms. When a change matters, we will e-mail account holders before it
          takes effect; continuing to use Lockdrop means you accept the updated terms.
        </p>
      </DocumentPage>
    </>
  );
}
