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

/**
 * A 256-bit random, URL-safe bearer secret and its sha256, the only form ever stored: a
 * database leak yields no usable secret. Browser keys, receipt links and identity's session,
 * verification and reset tokens are all made here.
 */
export function newBearerSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: sha256Hex(secret) };
}

/** A fresh key and the hash that is stored in its place. */
export function newBrowserKey(): { key: string; hash: string } {
  const { secret, hash } = newBearerSecret();
  return { key: secret, hash };
}

/** The stored form of a presented key; anything not shaped like one is ignored, never looked up. */
export function hashBrowserKey(value: string | undefined): string | null {
  return value && KEY_FORMAT.test(value) ? sha256Hex(value) : null;
}
