import { useEffect, useState } from 'react';
import { parseProductSlugId } from '@lockdrop/contracts';
import { useParams, useSearchParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { useSession } from '@/features/auth';
import { PURCHASE_CARD_ID, PurchaseCard } from '@/features/checkout/components/purchase-card';
import { useProduct } from '@/features/products/api/get-product';
import { PageSpinner } from '@/features/products/components/page-spinner';
import { ProductDetail } from '@/features/products/components/product-detail';
import { ProductNotFound } from '@/features/products/components/product-not-found';
import { filesSummaryOf } from '@/features/products/lib/files-summary';
import { useAccess } from '@/features/purchases/api/get-access';
import { FullAccessCard } from '@/features/purchases/components/full-access-card';
import { PurchaseFiles } from '@/features/purchases/components/purchase-files';
import { recallEmail } from '@/lib/checkout-memory';
import { usePageBrand } from '@/lib/page-brand';
import { priceLabel } from '@/lib/pricing';
import { notify } from '@/lib/toast';

function scrollToPurchase() {
  const card = document.getElementById(PURCHASE_CARD_ID);
  card?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  card?.focus({ preventScroll: true });
}

export default function ProductRoute() {
  const params = useParams();
  // `/product/:id`, or the readable `/p/<slug>-<shortId>`: catalog reads either by its key.
  const key = params.id ?? (params.slugId && parseProductSlugId(params.slugId)?.shortId) ?? '';
  const [searchParams] = useSearchParams();
  const [currency, setCurrency] = useState<string>();
  const product = useProduct(key, currency);
  const access = useAccess(product.data?.id ?? '');
  const { user } = useSession();
  usePageBrand(product.data?.brand);
  useEffect(() => {
    if (product.isError) notify.error('Product not found');
  }, [product.isError]);

  if (product.isPending) return <PageSpinner label="Loading product" />;
  if (product.isError) return <ProductNotFound />;
  const detail = product.data;
  const purchaseId = access.data?.hasAccess ? access.data.purchaseId : undefined;
  return (
    <div className="bg-slate-50">
      <Seo
        title={`${detail.title} — ${detail.brand?.name ?? 'Lockdrop'}`}
        description={
          detail.description ?? `Buy ${detail.title} from ${detail.brand?.name ?? 'Lockdrop'}.`
        }
      />
      <ProductDetail
        product={detail}
        selectedCurrency={currency}
        onCurrencyChange={setCurrency}
        onPurchaseNow={scrollToPurchase}
        unlocked={purchaseId && <PurchaseFiles purchaseId={purchaseId} compact />}
        aside={
          access.isPending ? (
            <div
              className="h-72 animate-pulse rounded-2xl bg-white ring-1 ring-slate-200"
              aria-busy="true"
            />
          ) : purchaseId ? (
            <FullAccessCard />
          ) : (
            <PurchaseCard
              key={user?.email ?? ''}
              productId={detail.id}
              price={detail.display}
              labelPrice={(formatted) => priceLabel(formatted, detail.pricing)}
              minimum={detail.displayMinimum}
              initialCode={searchParams.get('code') ?? undefined}
              file={filesSummaryOf(detail)}
              fileCount={Math.max(detail.files.length, 1)}
              defaultEmail={user?.email ?? recallEmail(detail.id)}
              recurring={detail.pricing.type === 'recurring'}
            />
          )
        }
      />
    </div>
  );
}
