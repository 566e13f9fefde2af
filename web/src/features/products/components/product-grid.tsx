import { PackageOpen, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';
import { useMyProducts } from '../api/get-my-products';
import type { Product } from '../types';
import { ProductCard } from './product-card';
import { ShareLinkPanel } from './share-link-panel';

export function ProductGrid() {
  const products = useMyProducts();
  const [published, setPublished] = useState<Product | null>(null);
  useEffect(() => {
    if (products.isError) notify.error('Failed to load products');
  }, [products.isError]);
  if (products.isPending) {
    return (
      <div
        className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
        aria-busy="true"
        aria-label="Loading products"
      >
        {[0, 1, 2].map((key) => (
          <div
            key={key}
            className="h-64 animate-pulse rounded-2xl bg-white ring-1 ring-slate-200"
          />
        ))}
      </div>
    );
  }
  if (products.isError) {
    return (
      <p
        role="alert"
        className="rounded-xl bg-rose-50 px-4 py-3 text-rose-800 ring-1 ring-rose-200"
      >
        Failed to load products
      </p>
    );
  }
  if (products.data.length === 0) {
    return (
      <div className="rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <PackageOpen className="mx-auto size-10 text-indigo-500" aria-hidden="true" />
        <h2 className="mt-4 text-lg font-semibold text-slate-900">No products yet</h2>
        <p className="mt-2 text-slate-600">
          Upload a file, set a price and share your first payment link.
        </p>
        <ButtonLink to={paths.products.create.getHref()} className="mt-6">
          <Plus className="size-4" aria-hidden="true" /> Create your first product
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      {published && <ShareLinkPanel key={published.id} product={published} />}
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {products.data.map((product) => (
          <ProductCard key={product.id} product={product} onPublished={setPublished} />
        ))}
      </div>
    </div>
  );
}
