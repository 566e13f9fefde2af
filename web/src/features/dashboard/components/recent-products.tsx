import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/ui/button';
import { CopyLinkButton } from '@/components/ui/copy-link-button';
import { paths } from '@/config/paths';
import { productPriceLabel } from '@/lib/pricing';
import { productUrl } from '@/lib/product-link';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import type { Product } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatDate } from '../lib/format';
import { EmptyState } from './empty-state';

/** Spec §9: the dashboard lists show 3 (catalog answers the seller's whole list, newest first). */
const SHOWN = 3;

export function RecentProducts({ products }: { products: UseQueryResult<Product[]> }) {
  const recent = products.data?.slice(0, SHOWN) ?? [];
  return (
    <Panel
      title="Recent Products"
      action={
        <Link
          to={paths.products.mine.getHref()}
          className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          View all
        </Link>
      }
    >
      {products.isPending ? (
        <Loading label="Loading your products" />
      ) : products.isError ? (
        <LoadError what="your products" />
      ) : recent.length === 0 ? (
        <EmptyState
          title="No products yet"
          action={
            <ButtonLink to={paths.products.create.getHref()} size="sm">
              Create your first product
            </ButtonLink>
          }
        >
          Upload a file, set a price and share the link — your products show up here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.map((product) => (
            <li key={product.id} className="flex items-center justify-between gap-4 py-3">
              <div className="min-w-0">
                <Link
                  to={paths.products.detail.getHref(product.id)}
                  className="block truncate font-medium text-slate-900 hover:text-indigo-700"
                >
                  {product.title}
                </Link>
                <p className="text-xs text-slate-500">
                  {formatDate(product.createdAt)} ·{' '}
                  {product.status === 'published' ? 'Live' : 'Draft'}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <span className="text-sm font-semibold text-slate-900">
                  {productPriceLabel(product)}
                </span>
                <CopyLinkButton url={productUrl(product)} name={product.title} variant="ghost" />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
