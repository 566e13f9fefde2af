import { useNavigate } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth';
import { useCreateProduct } from '@/features/products/api/create-product';
import { AppPage } from '@/features/products/components/app-page';
import { ProductForm } from '@/features/products/components/product-form';
import { emptyInput } from '@/features/products/lib/product-form';
import { useMaxFileBytes } from '@/features/products/lib/use-max-file-bytes';

const meta = {
  title: 'Create product — Lockdrop',
  description: 'Upload a file, set a price and share a payment link.',
};

function CreateProduct() {
  const navigate = useNavigate();
  const maxFileBytes = useMaxFileBytes();
  const create = useCreateProduct({ onSuccess: () => navigate(paths.dashboard.root.getHref()) });
  return (
    <AppPage
      title="Create product"
      description="Upload your file, set a price, and get a link to share."
      meta={meta}
    >
      <ProductForm
        initial={emptyInput}
        maxFileBytes={maxFileBytes}
        busy={create.isPending}
        onSubmit={(input) => create.mutate(input)}
        actions={(canSubmit) => (
          <>
            <ButtonLink to={paths.dashboard.root.getHref()} variant="secondary">
              Cancel
            </ButtonLink>
            <Button type="submit" disabled={!canSubmit}>
              {create.isPending ? 'Creating...' : 'Create Product'}
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
