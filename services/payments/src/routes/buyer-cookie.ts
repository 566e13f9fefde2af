import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../domain/receipts.js';

/**
 * `ld_buyer`: a random, httpOnly id for the browser that starts a checkout. Its hash is stored on
 * the checkout (and sent in `purchase.paid`), so that browser may see its payment result and
 * download without signing in; nobody else can, even with the `tx_ref` from the URL.
 */
export const BUYER_COOKIE = 'ld_buyer';
const KEY_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const THIRTY_DAYS_SECONDS = 30 * 24 * 3600;

export function browserKeyHashOf(request: FastifyRequest): string | null {
  const key = request.cookies[BUYER_COOKIE];
  return key && KEY_FORMAT.test(key) ? sha256Hex(key) : null;
}

/** The browser's key hash, issuing a new cookie first if the browser has none. */
export function ensureBrowserKey(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): string {
  const existing = browserKeyHashOf(request);
  if (existing) return existing;
  const key = randomBytes(32).toString('base64url');
  reply.setCookie(BUYER_COOKIE, key, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/api',
    maxAge: THIRTY_DAYS_SECONDS,
  });
  return sha256Hex(key);
}
