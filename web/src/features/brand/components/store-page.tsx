import type { StorePage as Store } from '@lockdrop/contracts';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';

/** `/s/:handle`: the seller's published products, under their brand (the layout shows it). */
export function StorePage({ store }: { store: Store }) {
  const name = store.brand?.name ?? store.handle;
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{name}</h1>
        {store.products.length === 0 ? (
          <p className="mt-6 text-slate-600">Nothing for sale here yet.</p>
        ) : (
          <ul
            className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
            aria-label={`Products of ${name}`}
          >
            {store.products.map((product) => (
              <li
                key={product.id}
                className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
              >
                {product.previewEnabled && (
                  <img
                    src={`/api/previews/${product.id}`}
                    alt=""
                    loading="lazy"
                    className="mb-4 aspect-video w-full rounded-lg object-cover"
                  />
                )}
                <Link
                  to={paths.products.detail.getHref(product.id)}
                  className="brand-accent-text text-lg font-semibold text-indigo-700 hover:underline"
                >
                  {product.title}
                </Link>
                {product.description && (
                  <p className="mt-2 line-clamp-3 text-sm text-slate-600">{product.description}</p>
                )}
                <p className="mt-3 font-semibold text-slate-900">{product.priceFormatted}</p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
