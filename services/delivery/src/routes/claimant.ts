import { BUYER_COOKIE, RECEIPT_COOKIE, hashBrowserKey } from '@lockdrop/auth';
import type { FastifyRequest } from 'fastify';
import type { Claimant } from '../domain/access.js';

/** Runs after `app.identify`: the signed-in user (if any) and the browser's buyer and receipt keys. */
export function claimantOf(request: FastifyRequest): Claimant {
  return {
    user: request.user,
    browserKeyHash: hashBrowserKey(request.cookies[BUYER_COOKIE]),
    receiptKeyHash: hashBrowserKey(request.cookies[RECEIPT_COOKIE]),
  };
}
