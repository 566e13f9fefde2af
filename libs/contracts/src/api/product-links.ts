/**
 * Readable product addresses (issue 29): `/p/<slug>-<shortId>`. The short id decides which
 * product it is; the slug is cosmetic, so a renamed product's old links still find it (the
 * gateway answers them with a 301 to the current slug). The short id is the base62 of the
 * product id's first 64 bits: derived, never stored, so every product has one from the start
 * and it never changes. Catalog refuses to create a product whose first 64 bits another product
 * already has (domain/products.ts), which keeps it unique.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^11 > 2^64: eleven characters hold any 64 bits. */
export const SHORT_ID_LENGTH = 11;
export const SHORT_ID = /^[0-9A-Za-z]{11}$/;
/** A product id (a uuid), the only thing a short id is made from. */
export const PRODUCT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG_MAX = 60;

/** The product's short id: base62 of the uuid's first 64 bits, eleven characters. */
export function shortIdOf(productId: string): string {
  if (!PRODUCT_ID.test(productId)) throw new Error(`not a product id: ${productId}`);
  let value = BigInt(`0x${productId.replaceAll('-', '').slice(0, 16)}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out.padStart(SHORT_ID_LENGTH, '0');
}

/**
 * The smallest and largest uuid a short id stands for (its 64 bits, then all zeros / all ones),
 * for a range read on the primary key; null when it is not a short id.
 */
export function shortIdRange(shortId: string): { from: string; to: string } | null {
  if (!SHORT_ID.test(shortId)) return null;
  let value = 0n;
  for (const character of shortId) value = value * 62n + BigInt(BASE62.indexOf(character));
  if (value >= 1n << 64n) return null;
  const hex = value.toString(16).padStart(16, '0');
  const head = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}`;
  return { from: `${head}-0000-000000000000`, to: `${head}-ffff-ffffffffffff` };
}

/** Letters that do not decompose into a base letter and a mark (NFKD leaves them whole). */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** The title as an address part: lowercase ASCII words joined by hyphens, at most 60 characters. */
export function productSlug(title: string): string {
  const ascii = title
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (letter) => LETTERS[letter] ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (ascii.length <= SLUG_MAX) return ascii || 'product';
  const cut = ascii.slice(0, SLUG_MAX + 1);
  // Cut at a word's end when there is one in reach, so a slug never ends mid-word.
  const end = cut.lastIndexOf('-');
  return (end > SLUG_MAX / 2 ? cut.slice(0, end) : ascii.slice(0, SLUG_MAX)).replace(/-+$/, '');
}

/** `/p/<slug>-<shortId>`: the address every share link, QR code and canonical tag uses. */
export function productPath(product: { id: string; title: string }): string {
  return `/p/${productSlug(product.title)}-${shortIdOf(product.id)}`;
}

/** The parts of `/p/:slugId`'s parameter; null when it carries no short id. */
export function parseProductSlugId(slugId: string): { slug: string; shortId: string } | null {
  const dash = slugId.lastIndexOf('-');
  const shortId = slugId.slice(dash + 1);
  if (!SHORT_ID.test(shortId)) return null;
  return { slug: dash < 0 ? '' : slugId.slice(0, dash), shortId };
}
