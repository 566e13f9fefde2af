import { paths } from '@/config/paths';

/**
 * The address a seller shares (Copy link, share buttons, QR, "Your link is live"): the product's
 * readable page on this site, `/p/<slug>-<shortId>`.
 */
export const productUrl = (
  product: { id: string; title: string },
  origin = window.location.origin,
): string => new URL(paths.products.readable.getHref(product), origin).href;

/** Where each share button sends the link (the networks' documented share URLs). */
export function shareTargets(url: string, title: string) {
  const text = `${title} — ${url}`;
  return [
    { name: 'WhatsApp', href: `https://wa.me/?text=${encodeURIComponent(text)}` },
    {
      name: 'X',
      href: `https://x.com/intent/post?${new URLSearchParams({ text: title, url }).toString()}`,
    },
    {
      name: 'Facebook',
      href: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: url }).toString()}`,
    },
  ];
}
