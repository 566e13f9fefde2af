import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth';
import { useCreateProduct } from '@/features/products/api/create-product';
import { useSetProductStatus } from '@/features/products/api/set-product-status';
import { AppPage } from '@/features/products/components/app-page';
import { ProductForm } from '@/features/products/components/product-form';
import { emptyInput } from '@/features/products/lib/product-form';
import { useMaxFileBytes } from '@/features/products/lib/use-max-file-bytes';
import type { Product } from '@/features/products/types';

const meta = {
  title: 'Create product — Lockdrop',
  description: 'Upload a file, set a price and share a payment link.',
};

function CreateProduct() {
  const navigate = useNavigate();
  const publishNowId = useId();
  const [publishNow, setPublishNow] = useState(false);
  const maxFileBytes = useMaxFileBytes();
  const publish = useSetProductStatus();
  const toDashboard = (live?: Product) =>
    navigate(paths.dashboard.root.getHref(), {
      state: live ? { liveProduct: { id: live.id, title: live.title } } : undefined,
    });
  // Created as a draft (spec §4); "Publish now" publishes it at once, and /dashboard then shows
  // its link to share.
  const create = useCreateProduct({
    onSuccess: (product) =>
      publishNow
        ? publish.mutate(
            { id: product.id, status: 'published' },
            { onSuccess: toDashboard, onError: () => toDashboard() },
          )
        : toDashboard(),
  });
  const busy = create.isPending || publish.isPending;
  return (
    <AppPage
      title="Create product"
      description="Upload your file, set a price, and get a link to share."
      meta={meta}
    >
      <ProductForm
        initial={emptyInput}
        maxFileBytes={maxFileBytes}
        busy={busy}
        onSubmit={(input) => create.mutate(input)}
        actions={(canSubmit) => (
          <>
            <div className="flex items-center gap-2 sm:mr-auto">
              <input
                id={publishNowId}
                type="checkbox"
                checked={publishNow}
                onChange={(event) => setPublishNow(event.target.checked)}
                className="size-4 rounded border-slate-300 accent-indigo-600"
              />
              <label htmlFor={publishNowId} className="text-sm text-slate-700">
                Publish now, so the link works for buyers at once
              </label>
            </div>
            <ButtonLink to={paths.dashboard.root.getHref()} variant="secondary">
              Cancel
            </ButtonLink>
            <Button type="submit" disabled={!canSubmit || busy}>
              {busy ? 'Creating...' : 'Create Product'}
            </Button>
          </>
        )}
      />
    </AppPage>
  );
}

export default function CreateProductRoute() {
  return (
    <RequireAuth>
      <CreateProduct />
    </RequireAuth>
  );
}
