import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
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
import { paymentModeQueryOptions } from '@/lib/payment-mode';
import { usePageBrand } from '@/lib/page-brand';
import { priceLabel } from '@/lib/pricing';
import { notify } from '@/lib/toast';

function scrollToPurchase() {
  const card = document.getElementById(PURCHASE_CARD_ID);
  card?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  card?.focus({ preventScroll: true });
}

/**
 * The purchase card, hidden under a placeholder until we know that this visitor does not own the
 * file yet and whether payments are test ones. It is laid out all along, so the placeholder is
 * exactly its height and what follows it on a phone (the description, the preview) does not
 * jump when it shows (the product page's CLS read 0.075 with a fixed-height placeholder).
 */
function PendingCard({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <div className="relative" aria-busy={pending || undefined}>
      <div inert={pending} className={pending ? 'invisible' : undefined}>
        {children}
      </div>
      {pending && (
        <div className="absolute inset-0 animate-pulse rounded-2xl bg-white ring-1 ring-slate-200" />
      )}
    </div>
  );
}

export default function ProductRoute() {
  const params = useParams();
  // `/product/:id`, or the readable `/p/<slug>-<shortId>`: catalog reads either by its key.
  const key = params.id ?? (params.slugId && parseProductSlugId(params.slugId)?.shortId) ?? '';
  const [searchParams] = useSearchParams();
  const [currency, setCurrency] = useState<string>();
  const product = useProduct(key, currency);
  const access = useAccess(product.data?.id ?? '');
  // Asked with the access check, not when the card mounts: the card's test-payment notice is
  // then known before the card shows, instead of pushing the form down after it.
  const paymentMode = useQuery(paymentModeQueryOptions);
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
          purchaseId ? (
            <FullAccessCard />
          ) : (
            <PendingCard pending={access.isPending || paymentMode.isPending}>
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
            </PendingCard>
          )
        }
      />
    </div>
  );
}
