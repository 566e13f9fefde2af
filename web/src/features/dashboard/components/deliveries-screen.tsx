import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/ui/button';
import { Table, type Column } from '@/components/ui/table';
import { paths } from '@/config/paths';
import { productPriceLabel } from '@/lib/pricing';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import type { Product } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useProductFigures, type ProductFigures } from '../api/get-product-figures';
import { formatCount, formatDate } from '../lib/format';
import { EmptyState } from './empty-state';
import { RevenueList } from './revenue-list';

const DAYS = 365;

function ProductName({ product }: { product: Product }) {
  return (
    <>
      <Link
        to={paths.products.detail.getHref(product.id)}
        className="font-medium text-slate-900 hover:text-indigo-700"
      >
        {product.title}
      </Link>
      <span className="block text-xs text-slate-500">
        {formatDate(product.createdAt)} · {product.status === 'published' ? 'Live' : 'Draft'}
      </span>
    </>
  );
}

/** A product without figures yet delivered nothing: its counts are zero. */
function deliveryColumns(byProduct: Map<string, ProductFigures>): Column<Product>[] {
  const count = (header: string, figure: 'views' | 'sales' | 'downloads'): Column<Product> => ({
    header,
    align: 'right',
    cell: (product) => formatCount(byProduct.get(product.id)?.[figure] ?? 0),
  });
  return [
    { header: 'Product', cell: (product) => <ProductName product={product} /> },
    { header: 'Price', cell: (product) => productPriceLabel(product) },
    count('Views', 'views'),
    count('Sales', 'sales'),
    count('Downloads', 'downloads'),
    {
      header: 'Revenue',
      align: 'right',
      cell: (product) => <RevenueList revenue={byProduct.get(product.id)?.revenue ?? []} />,
    },
  ];
}

/**
 * /dashboard/deliveries: each product with what it delivered over the last year. The seller's
 * products come from the products feature, through the route.
 */
export function DeliveriesScreen({ products }: { products: UseQueryResult<Product[]> }) {
  const figures = useProductFigures(DAYS);
  const byProduct = new Map<string, ProductFigures>(
    figures.data?.map((entry) => [entry.productId, entry]),
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Deliveries</h1>
        <ButtonLink to={paths.products.create.getHref()} size="sm">
          New Delivery
        </ButtonLink>
      </div>
      <Panel title="Your products, last 12 months">
        {products.isPending || figures.isPending ? (
          <Loading label="Loading your deliveries" />
        ) : products.isError || figures.isError ? (
          <LoadError what="your deliveries" />
        ) : products.data.length === 0 ? (
          <EmptyState
            title="Nothing delivered yet"
            action={
              <ButtonLink to={paths.products.create.getHref()} size="sm">
                Create your first product
              </ButtonLink>
            }
          >
            Create a product and share its link; every paid unlock and download is counted here.
          </EmptyState>
        ) : (
          <Table
            columns={deliveryColumns(byProduct)}
            rows={products.data}
            rowKey={(product) => product.id}
            minWidthClass="min-w-[44rem]"
          />
        )}
      </Panel>
    </div>
  );
}
