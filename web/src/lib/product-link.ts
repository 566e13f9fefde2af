import { paths } from '@/config/paths';

/** The address a seller shares: the product page on this site. */
export const productUrl = (id: string, origin = window.location.origin): string =>
  new URL(paths.products.detail.getHref(id), origin).href;

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
