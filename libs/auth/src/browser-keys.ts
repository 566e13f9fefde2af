import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer secrets that stand for a browser rather than an account: the `ld_buyer` cookie
 * (payments sets it on the browser that starts a checkout; delivery lets that browser download),
 * the `ld_receipt` cookie (delivery, from the receipt e-mail's link) and the receipt token in that
 * link. Each is 32 random bytes as base64url; only its sha256 is stored or sent in events.
 */
export const BUYER_COOKIE = 'ld_buyer';
export const RECEIPT_COOKIE = 'ld_receipt';
const KEY_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A fresh key and the hash that is stored in its place. */
export function newBrowserKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('base64url');
  return { key, hash: sha256Hex(key) };
}

/** The stored form of a presented key; anything not shaped like one is ignored, never looked up. */
export function hashBrowserKey(value: string | undefined): string | null {
  return value && KEY_FORMAT.test(value) ? sha256Hex(value) : null;
}
