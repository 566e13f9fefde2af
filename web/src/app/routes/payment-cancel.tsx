import { XCircle } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { TryAgainLink } from '@/components/try-again-link';
import { Seo } from '@/components/seo/seo';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { usePayment } from '@/features/purchases/api/get-payment';
import { useBrandedTitle, usePageBrand } from '@/lib/page-brand';

export default function PaymentCancelRoute() {
  const [search] = useSearchParams();
  const txRef = search.get('tx_ref') ?? search.get('txRef');
  // The seller's brand stays around a cancelled payment of their product (Pro and up).
  usePageBrand(usePayment(txRef).data?.brand);
  const title = useBrandedTitle('Payment canceled');
  return (
    <div className="bg-slate-50 px-4 py-14 sm:py-20">
      <Seo title={title} description="Your payment was canceled." />
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-10">
        <XCircle className="mx-auto size-14 text-slate-400" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Payment canceled</h1>
        <p className="mt-2 text-slate-600">
          No money was taken. You can go back to the product link and try again whenever you like.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <TryAgainLink txRef={txRef} />
          <ButtonLink to={paths.home.getHref()} variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
