import { Plus } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth';
import { AppPage } from '@/features/products/components/app-page';
import { ProductGrid } from '@/features/products/components/product-grid';

const meta = { title: 'My products — Lockdrop', description: 'The files you sell on Lockdrop.' };

export default function MyProductsRoute() {
  return (
    <RequireAuth>
      <AppPage
        title="My products"
        description="Publish a product to make its link work for buyers."
        meta={meta}
        width="wide"
        actions={
          <ButtonLink to={paths.products.create.getHref()}>
            <Plus className="size-4" aria-hidden="true" /> New product
          </ButtonLink>
        }
      >
        <ProductGrid />
      </AppPage>
    </RequireAuth>
  );
}
