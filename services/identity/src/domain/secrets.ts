import { createHash, randomBytes } from 'node:crypto';

/** Only the SHA-256 of a bearer secret is stored: a database leak yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A 256-bit random, URL-safe secret and the hash to store for it. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}
