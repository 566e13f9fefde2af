import { formatFileSize } from '@lockdrop/plans';
import { CalendarDays, ExternalLink, FileText, Pencil } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/ui/button';
import { CopyLinkButton } from '@/components/ui/copy-link-button';
import { paths } from '@/config/paths';
import { productPriceLabel } from '@/lib/pricing';
import { useSetProductStatus } from '../api/set-product-status';
import { productUrl } from '@/lib/product-link';
import type { Product } from '../types';
import { StatusBadge } from './status-badge';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** One product on /my-products (spec §2 My products); `onPublished` shows its link to share. */
export function ProductCard({
  product,
  onPublished,
}: {
  product: Product;
  onPublished: (product: Product) => void;
}) {
  const setStatus = useSetProductStatus();
  const published = product.status === 'published';
  return (
    <article
      className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      aria-labelledby={`product-${product.id}`}
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={`product-${product.id}`} className="text-lg font-semibold text-slate-900">
          {product.title}
        </h2>
        <StatusBadge status={product.status} />
      </div>
      {product.description && (
        <p className="mt-2 line-clamp-2 text-sm text-slate-600">{product.description}</p>
      )}
      <div className="mt-4">
        <p className="text-2xl font-bold text-slate-900">{productPriceLabel(product)}</p>
        {product.payWhatYouWant && (
          <p className="text-sm text-slate-600">Suggested price {product.priceFormatted}</p>
        )}
      </div>
      <dl className="mt-4 space-y-2 text-sm text-slate-600">
        <div className="flex items-center gap-2">
          <dt>
            <CalendarDays className="size-4 text-slate-400" aria-label="Created" />
          </dt>
          <dd>{dateFormat.format(new Date(product.createdAt))}</dd>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <dt>
            <FileText className="size-4 text-slate-400" aria-label="File" />
          </dt>
          <dd className="truncate">
            {product.fileName}{' '}
            <span className="text-slate-500">· {formatFileSize(product.fileSizeBytes)}</span>
            {product.files.length > 1 && (
              <span className="text-slate-500"> · {product.files.length} files</span>
            )}
          </dd>
        </div>
      </dl>
      <div className="mt-6 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
        <Link
          to={paths.products.detail.getHref(product.id)}
          className={buttonClass('secondary', 'sm')}
          aria-label={`View ${product.title}`}
        >
          <ExternalLink className="size-4" aria-hidden="true" /> View
        </Link>
        <Link
          to={paths.products.edit.getHref(product.id)}
          className={buttonClass('ghost', 'sm')}
          aria-label={`Edit ${product.title}`}
        >
          <Pencil className="size-4" aria-hidden="true" /> Edit
        </Link>
        <CopyLinkButton url={productUrl(product)} name={product.title} variant="ghost" />
        <button
          type="button"
          disabled={setStatus.isPending}
          onClick={() =>
            setStatus.mutate(
              { id: product.id, status: published ? 'draft' : 'published' },
              { onSuccess: (saved) => saved.status === 'published' && onPublished(saved) },
            )
          }
          aria-label={published ? `Unpublish ${product.title}` : `Publish ${product.title}`}
          className={`${buttonClass(published ? 'secondary' : 'primary', 'sm')} ml-auto`}
        >
          {published ? 'Unpublish' : 'Publish'}
        </button>
      </div>
    </article>
  );
}
