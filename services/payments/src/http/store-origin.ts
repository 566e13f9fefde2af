import { STORE_ORIGIN_HEADER, STORE_SELLER_HEADER } from '@lockdrop/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/** The custom domain a request arrived on, as the gateway says (issue 28). */
export interface StoreOrigin {
  /** `https://shop.example.com`: scheme, host and port only. */
  origin: string;
  sellerId: string;
}

const originSchema = z
  .url({ protocol: /^https?$/ })
  .refine((text) => new URL(text).origin === text, 'an origin: no path, query or credentials');

/**
 * The gateway sets both headers on requests that came in on a verified store domain and drops
 * any a client sends (gateway http/forwarding.ts); only the gateway reaches this service.
 */
export function storeOriginOf(request: Pick<FastifyRequest, 'headers'>): StoreOrigin | null {
  const origin = originSchema.safeParse(request.headers[STORE_ORIGIN_HEADER]);
  const sellerId = z.uuid().safeParse(request.headers[STORE_SELLER_HEADER]);
  return origin.success && sellerId.success
    ? { origin: origin.data, sellerId: sellerId.data }
    : null;
}
