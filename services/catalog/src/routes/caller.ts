import { ACCESS_COOKIE } from '@lockdrop/auth';
import { errors } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { visitorIdOf, visitorKeyFor, type Visit } from '../domain/product-views.js';
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

const VISITOR_COOKIE = 'ld_vid';
const VISITOR_KEY = /^[a-f0-9]{32}$/;
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/**
 * The visit of an anonymous or signed-in reader, keyed by the first-party `ld_vid` cookie, set
 * here when missing. The client IP comes from x-forwarded-for, which the gateway overwrites
 * with the real peer address (catalog only listens behind it); it only ever feeds a view count.
 */
export function visitOf(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  referrer: string | undefined,
): Visit {
  let visitorKey = request.cookies[VISITOR_COOKIE];
  if (!visitorKey || !VISITOR_KEY.test(visitorKey)) {
    const forwarded = request.headers['x-forwarded-for'];
    const ip =
      (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || request.ip;
    visitorKey = visitorKeyFor(ip, request.headers['user-agent'] ?? '', secret);
    void reply.setCookie(VISITOR_COOKIE, visitorKey, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.headers['x-forwarded-proto'] === 'https' || request.protocol === 'https',
      maxAge: ONE_YEAR_S,
    });
  }
  return {
    visitorId: visitorIdOf(visitorKey, secret),
    referrer: referrer || null,
    correlationId: request.id,
  };
}
