import { Navigate, useSearchParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { PaymentResult } from '@/features/purchases/components/payment-result';
import { useBrandedTitle } from '@/lib/page-brand';

/** The provider sends the buyer here with ?status=…&tx_ref=… (some links say txRef). */
export default function PaymentSuccessRoute() {
  const [search] = useSearchParams();
  // PaymentResult puts the seller's brand around the page (Pro and up); the tab says it too.
  const title = useBrandedTitle('Payment');
  if (search.get('status') === 'cancelled')
    return <Navigate to={`${paths.payment.cancel.getHref()}?${search.toString()}`} replace />;
  const txRef = search.get('tx_ref') ?? search.get('txRef');
  return (
    <div className="bg-slate-50 px-4 py-14 sm:py-20">
      <Seo title={title} description="The result of your payment." />
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <PaymentResult txRef={txRef} />
      </div>
    </div>
  );
}
