import { ACCESS_COOKIE } from '@lockdrop/auth';
import { errors } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import type { Visit } from '../domain/product-views.js';
import type { Seller } from '../domain/products.js';

/** The authenticated seller plus the raw token, forwarded to delivery (which verifies it itself). */
export function sellerOf(request: FastifyRequest): Seller {
  if (!request.user) throw errors.unauthorized('Auth session missing!');
  const header = request.headers.authorization;
  const accessToken = header?.startsWith('Bearer ')
    ? header.slice('Bearer '.length).trim()
    : request.cookies[ACCESS_COOKIE];
  if (!accessToken) throw errors.unauthorized('Auth session missing!');
  return { user: request.user, accessToken, requestId: request.id };
}

/** The gateway's keyed hash of the visitor (it sets the header on every product read it forwards). */
const VISITOR_ID_HEADER = 'x-visitor-id';
const VISITOR_ID = /^[a-f0-9]{64}$/;

/**
 * The visit to count for a product read, or null when the gateway did not identify a visitor
 * (a read that asks not to count, or a call that did not come through the gateway).
 */
export function visitOf(request: FastifyRequest, referrer: string | undefined): Visit | null {
  const visitorId = request.headers[VISITOR_ID_HEADER];
  if (typeof visitorId !== 'string' || !VISITOR_ID.test(visitorId)) return null;
  return { visitorId, referrer: referrer || null, correlationId: request.id };
}
