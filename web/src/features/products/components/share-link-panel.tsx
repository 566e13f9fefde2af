import { CircleCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { buttonClass } from '@/components/ui/button';
import { CopyLinkButton } from '@/components/ui/copy-link-button';
import { productUrl, shareTargets } from '@/lib/product-link';

function QrCode({ url }: { url: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // Loaded on demand: only sellers who just published see a QR code.
    void import('qrcode')
      .then((qrcode) => qrcode.toDataURL(url, { margin: 1, width: 176 }))
      .then((data) => current && setImage(data));
    return () => {
      current = false;
    };
  }, [url]);
  if (!image) return <div className="size-44 animate-pulse rounded-lg bg-slate-100" />;
  return <img src={image} alt={`QR code for ${url}`} className="size-44 rounded-lg" />;
}

/** After creating or publishing: the product's link, ready to copy, share or scan. */
export function ShareLinkPanel({ product }: { product: { id: string; title: string } }) {
  const headingId = useId();
  const url = productUrl(product);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl bg-emerald-50 p-6 ring-1 ring-emerald-200"
    >
      <div className="flex flex-col gap-6 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <h2
            id={headingId}
            className="flex items-center gap-2 text-lg font-semibold text-slate-900"
          >
            <CircleCheck className="size-5 text-emerald-600" aria-hidden="true" />
            Your link is live
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Share it with buyers of “{product.title}”: they see the preview, pay, and the file
            unlocks for them.
          </p>
          <label htmlFor={`${headingId}-url`} className="sr-only">
            Product link
          </label>
          <input
            id={`${headingId}-url`}
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-4 w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 ring-1 ring-slate-300"
          />
          <div className="mt-3 flex flex-wrap gap-2">
            <CopyLinkButton url={url} variant="primary" />
            {shareTargets(url, product.title).map((target) => (
              <a
                key={target.name}
                href={target.href}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClass('secondary', 'sm')}
              >
                {`Share on ${target.name}`}
              </a>
            ))}
          </div>
        </div>
        <QrCode url={url} />
      </div>
    </section>
  );
}
