import type { FastifyRequest } from 'fastify';
import { sha256Hex, type Claimant } from '../domain/access.js';

/** Set by payments (path `/api`) on the browser that starts a checkout. */
export const BUYER_COOKIE = 'ld_buyer';
/** Set here (path `/api`) when a browser opens the receipt e-mail's link. */
export const RECEIPT_COOKIE = 'ld_receipt';
/** Both cookies hold 32 random bytes as base64url; anything else is ignored, never hashed and looked up. */
const KEY_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function hashedCookie(request: FastifyRequest, name: string): string | null {
  const value = request.cookies[name];
  return value && KEY_FORMAT.test(value) ? sha256Hex(value) : null;
}

/** Runs after `app.identify`: the signed-in user (if any) and the browser's buyer and receipt keys. */
export function claimantOf(request: FastifyRequest): Claimant {
  return {
    user: request.user,
    browserKeyHash: hashedCookie(request, BUYER_COOKIE),
    receiptKeyHash: hashedCookie(request, RECEIPT_COOKIE),
  };
}
