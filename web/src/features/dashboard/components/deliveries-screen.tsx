import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { productPriceLabel } from '@/lib/pricing';
import type { Product } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useProductFigures, type ProductFigures } from '../api/get-product-figures';
import { formatCount, formatDate } from '../lib/format';
import { EmptyState, LoadError, Loading, Panel } from './empty-state';
import { RevenueList } from './revenue-list';

const DAYS = 365;

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
          <div className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Product
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Price
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Views
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Sales
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Downloads
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Revenue
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {products.data.map((product) => {
                  const entry = byProduct.get(product.id);
                  return (
                    <tr key={product.id}>
                      <td className="py-3 pr-4">
                        <Link
                          to={paths.products.detail.getHref(product.id)}
                          className="font-medium text-slate-900 hover:text-indigo-700"
                        >
                          {product.title}
                        </Link>
                        <span className="block text-xs text-slate-500">
                          {formatDate(product.createdAt)} ·{' '}
                          {product.status === 'published' ? 'Live' : 'Draft'}
                        </span>
                      </td>
                      <td className="py-3 pr-4">{productPriceLabel(product)}</td>
                      <td className="py-3 pr-4 text-right">{formatCount(entry?.views ?? 0)}</td>
                      <td className="py-3 pr-4 text-right">{formatCount(entry?.sales ?? 0)}</td>
                      <td className="py-3 pr-4 text-right">{formatCount(entry?.downloads ?? 0)}</td>
                      <td className="py-3 text-right">
                        <RevenueList revenue={entry?.revenue ?? []} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}
