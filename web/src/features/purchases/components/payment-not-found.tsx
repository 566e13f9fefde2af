import { SearchX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Spec §2 Payment success: the likely reasons when no purchase is found. */
export function PaymentNotFound({ title = 'Purchase not found' }: { title?: string }) {
  return (
    <div className="text-center">
      <SearchX className="mx-auto size-12 text-slate-400" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 text-slate-600">We could not show this purchase. The likely reasons:</p>
      <ul className="mx-auto mt-4 max-w-md list-disc space-y-2 pl-5 text-left text-slate-700">
        <li>
          The payment is still processing. Check again in a minute, or use the link in your receipt
          e-mail.
        </li>
        <li>You are not signed in with the e-mail address you used at checkout.</li>
        <li>The payment reference in this link is invalid.</li>
      </ul>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.purchases.getHref()} className={buttonClass('primary')}>
          My Purchases
        </Link>
        <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
          Home
        </Link>
      </div>
    </div>
  );
}
