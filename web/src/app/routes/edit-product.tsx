import { useNavigate, useParams } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth';
import { useProduct } from '@/features/products/api/get-product';
import { useUpdateProduct } from '@/features/products/api/update-product';
import { AppPage } from '@/features/products/components/app-page';
import { PageSpinner } from '@/features/products/components/page-spinner';
import { ProductForm } from '@/features/products/components/product-form';
import { ProductNotFound } from '@/features/products/components/product-not-found';
import { inputOf } from '@/features/products/lib/product-form';
import { updateOf } from '@/features/products/lib/product-files';
import { useMaxFileBytes } from '@/features/products/lib/use-max-file-bytes';

const meta = {
  title: 'Edit product — Lockdrop',
  description: 'Change a product you sell on Lockdrop.',
};

function EditProduct({ id }: { id: string }) {
  const navigate = useNavigate();
  const product = useProduct(id);
  const maxFileBytes = useMaxFileBytes();
  const update = useUpdateProduct({ onSuccess: () => navigate(paths.products.mine.getHref()) });
  if (product.isPending) return <PageSpinner label="Loading product" />;
  if (product.isError || !product.data.viewerIsOwner) return <ProductNotFound />;
  return (
    <AppPage title="Edit product" description={product.data.title} meta={meta}>
      <ProductForm
        initial={inputOf(product.data)}
        product={product.data}
        maxFileBytes={maxFileBytes}
        busy={update.isPending}
        onSubmit={(input, files) => update.mutate({ id, ...updateOf(input, files) })}
        actions={(canSubmit) => (
          <>
            <ButtonLink to={paths.products.mine.getHref()} variant="secondary">
              Cancel
            </ButtonLink>
            <Button type="submit" disabled={!canSubmit}>
              {update.isPending ? 'Saving...' : 'Save changes'}
            </Button>
          </>
        )}
      />
    </AppPage>
  );
}

export default function EditProductRoute() {
  const { id = '' } = useParams();
  return (
    <RequireAuth>
      <EditProduct id={id} />
    </RequireAuth>
  );
}
