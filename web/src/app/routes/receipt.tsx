import { useParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { useProductBrand } from '@/features/products/api/get-product';
import { useReceipt } from '@/features/purchases/api/open-receipt';
import { ReceiptView } from '@/features/purchases/components/receipt-view';
import { useBrandedTitle, usePageBrand } from '@/lib/page-brand';

export default function ReceiptRoute() {
  const { token = '' } = useParams();
  // The receipt is the seller's (Pro and up): their header, not Lockdrop's, as on the e-mail.
  const receipt = useReceipt(token);
  usePageBrand(useProductBrand(receipt.data?.productId ?? '').data);
  const title = useBrandedTitle('Your receipt');
  return (
    <div className="bg-slate-50 px-4 py-14 sm:py-20">
      <Seo title={title} description="Download the file you bought." />
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <ReceiptView token={token} />
      </div>
    </div>
  );
}
