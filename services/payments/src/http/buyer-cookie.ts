import { BUYER_COOKIE, hashBrowserKey, newBrowserKey } from '@lockdrop/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `ld_buyer`: a random, httpOnly id for the browser that starts a checkout. Its hash is stored on
 * the checkout (and sent in `purchase.paid`), so that browser may see its payment result and
 * download without signing in; nobody else can, even with the `tx_ref` from the URL.
 */
const THIRTY_DAYS_SECONDS = 30 * 24 * 3600;

export function browserKeyHashOf(request: FastifyRequest): string | null {
  return hashBrowserKey(request.cookies[BUYER_COOKIE]);
}

/** The browser's key hash, issuing a new cookie first if the browser has none. */
export function ensureBrowserKey(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): string {
  const existing = browserKeyHashOf(request);
  if (existing) return existing;
  const { key, hash } = newBrowserKey();
  reply.setCookie(BUYER_COOKIE, key, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/api',
    maxAge: THIRTY_DAYS_SECONDS,
  });
  return hash;
}
