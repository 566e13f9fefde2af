import { AlertTriangle, Files, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CopyLinkButton } from '@/components/ui/copy-link-button';
import { paths } from '@/config/paths';
import { productUrl } from '@/lib/product-link';
import { ProductPreview } from './product-preview';
import { ProductPrice } from './product-price';
import { StatusBadge } from './status-badge';
import type { ProductDetail as Product } from '../types';

interface ProductDetailProps {
  product: Product;
  selectedCurrency: string | undefined;
  onCurrencyChange: (currency: string) => void;
  onPurchaseNow: () => void;
  /** The purchase card, or the buyer's download card. */
  aside: ReactNode;
  /** A buyer's download buttons, shown in place of the locked preview. */
  unlocked?: ReactNode;
}

/** /product/:id (spec §2 Product detail): preview, title, description, price, then `aside`. */
export function ProductDetail({
  product,
  selectedCurrency,
  onCurrencyChange,
  onPurchaseNow,
  aside,
  unlocked,
}: ProductDetailProps) {
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-4 sm:px-6 sm:py-6 sm:py-14 lg:grid-cols-[3fr_2fr] lg:gap-10 lg:px-8 lg:py-14">
      {/* On a phone the title, price and Buy come first (issue 29: Buy sat more than a screen
          down, under the preview); from lg the preview is on the left, the purchase on the right.
          The document is in the phone's order, so a slow phone painting the page as it arrives
          never sees the preview pushed down when the purchase column's HTML comes in after it. */}
      <div className="space-y-3 sm:space-y-6 lg:col-start-2 lg:row-start-1">
        {product.viewerIsOwner && product.status !== 'published' && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            <AlertTriangle className="mt-0.5 size-4 flex-none" aria-hidden="true" />
            This product is not published; checkout may be blocked.
          </p>
        )}
        <div>
          {product.viewerIsOwner && (
            <div className="flex items-center gap-3">
              <StatusBadge status={product.status} />
              <Link
                to={paths.products.edit.getHref(product.id)}
                className="inline-flex items-center gap-1 rounded text-sm font-medium text-indigo-700 hover:text-indigo-600"
              >
                <Pencil className="size-3.5" aria-hidden="true" /> Edit product
              </Link>
              <CopyLinkButton url={productUrl(product)} variant="ghost" />
            </div>
          )}
          <h1
            className={`${product.viewerIsOwner ? 'mt-2 ' : ''}text-2xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl`}
          >
            {product.title}
          </h1>
          {product.sellerName && (
            <p className="mt-0.5 text-xs text-slate-600 sm:mt-1 sm:text-sm">
              by <span className="font-medium text-slate-800">{product.sellerName}</span>
            </p>
          )}
        </div>
        <ProductPrice
          product={product}
          selectedCurrency={selectedCurrency}
          onCurrencyChange={onCurrencyChange}
        />
        {product.files.length > 1 && (
          // On a phone the purchase card's heading already counts the files.
          <p className="hidden items-center gap-1.5 text-sm text-slate-600 sm:flex">
            <Files className="size-4 text-slate-400" aria-hidden="true" /> {product.files.length}{' '}
            files
          </p>
        )}
        {aside}
        {product.description && (
          <p className="whitespace-pre-line text-slate-700 lg:hidden">{product.description}</p>
        )}
      </div>
      <div className="space-y-6 lg:col-start-1 lg:row-start-1">
        <ProductPreview product={product} onPurchaseNow={onPurchaseNow} unlocked={unlocked} />
        {product.description && (
          <section aria-labelledby="about-title" className="hidden lg:block">
            <h2 id="about-title" className="text-lg font-semibold text-slate-900">
              About this product
            </h2>
            <p className="mt-2 whitespace-pre-line text-slate-700">{product.description}</p>
          </section>
        )}
      </div>
    </div>
  );
}
