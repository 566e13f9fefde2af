import { PackageX } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function ProductNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-28 text-center">
      <PackageX className="size-12 text-slate-400" aria-hidden="true" />
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-slate-900">Product not found.</h1>
      <p className="mt-3 text-slate-600">
        The link may be mistyped, or the seller has taken this product down.
      </p>
      <ButtonLink to={paths.home.getHref()} variant="secondary" className="mt-8">
        Back to Home
      </ButtonLink>
    </div>
  );
}
