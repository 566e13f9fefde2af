import type { PublicBrand } from '@lockdrop/contracts';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { storeDomain } from '@/lib/store-domain';

/** The seller's header on their buyers' pages: logo and store name, linking to the store page. */
export function BrandedHeader({ brand }: { brand: PublicBrand }) {
  return (
    <header
      className="border-b border-slate-200 bg-white"
      data-testid="brand-header"
      style={brand.accentColour ? { borderTop: `4px solid ${brand.accentColour}` } : undefined}
    >
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-4 sm:px-6">
        <Link
          to={storeDomain() ? '/' : paths.store.getHref(brand.handle)}
          className="flex items-center gap-3"
        >
          {brand.logoUrl && (
            <img
              src={brand.logoUrl}
              alt=""
              className="size-10 rounded object-contain"
              width={40}
              height={40}
            />
          )}
          <span className="text-lg font-bold text-slate-900">{brand.name}</span>
        </Link>
      </div>
    </header>
  );
}

/** What stays of Lockdrop on a seller's branded page: one small line, as Gumroad does. */
export function SoldWithLockdrop() {
  return (
    <footer className="border-t border-slate-200 bg-white py-4 text-center text-xs text-slate-500">
      <a
        href={storeDomain()?.siteUrl ?? '/'}
        className="hover:underline"
        data-testid="sold-with-lockdrop"
      >
        Sold with Lockdrop
      </a>
    </footer>
  );
}
