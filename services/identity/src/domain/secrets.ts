import { newBearerSecret, sha256Hex } from '@lockdrop/auth';

/** Only the SHA-256 of a bearer secret is stored: a database leak yields no usable token. */
export const hashToken = sha256Hex;

/** A 256-bit random, URL-safe secret and the hash to store for it. */
export function newToken(): { token: string; hash: string } {
  const { secret, hash } = newBearerSecret();
  return { token: secret, hash };
}
