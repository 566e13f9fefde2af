import '@fastify/cookie';
import { ACCESS_COOKIE } from '@lockdrop/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../domain/account.js';
import type { IssuedSession } from '../domain/sessions.js';

/** Sent only to /api/auth/*: refresh, session and sign-out are the only routes that need it. */
export const REFRESH_COOKIE = 'ld_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';
/** Binds a Google sign-in to the browser that started it. */
export const OAUTH_STATE_COOKIE = 'ld_oauth_state';
const OAUTH_COOKIE_PATH = '/api/auth/oauth';

/**
 * The forwarded header of the one proxy in front of us. The gateway replaces (never appends to)
 * X-Forwarded-For with the address it saw, so its last entry is the client; straight requests
 * (tests, probes) have none and use the socket address.
 */
function forwarded(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const last = (Array.isArray(value) ? value.at(-1) : value)?.split(',').at(-1)?.trim();
  return last || undefined;
}

export function clientOf(request: FastifyRequest): Client {
  return {
    ip: forwarded(request, 'x-forwarded-for') ?? request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  };
}

function isHttps(request: FastifyRequest): boolean {
  return (forwarded(request, 'x-forwarded-proto') ?? request.protocol) === 'https';
}

function cookieBase(request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: isHttps(request) };
}

/**
 * Access cookie on `/` (every service reads it), refresh cookie on `/api/auth` only. With
 * "remember me" both persist (the refresh cookie for the session's 30 days); without, both are
 * browser-session cookies that end when the browser closes.
 */
export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  session: IssuedSession,
): void {
  const base = cookieBase(request);
  reply.setCookie(ACCESS_COOKIE, session.accessToken, {
    ...base,
    path: '/',
    ...(session.persistent ? { expires: session.accessExpiresAt } : {}),
  });
  if (session.refreshToken) {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      ...base,
      path: REFRESH_COOKIE_PATH,
      ...(session.persistent ? { expires: session.sessionExpiresAt } : {}),
    });
  }
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const base = cookieBase(request);
  reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/' });
  reply.clearCookie(REFRESH_COOKIE, { ...base, path: REFRESH_COOKIE_PATH });
}

export function refreshTokenOf(request: FastifyRequest): string | undefined {
  return request.cookies[REFRESH_COOKIE] || undefined;
}

export function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return request.cookies[ACCESS_COOKIE] || undefined;
}

export function setOAuthStateCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  state: string,
): void {
  reply.setCookie(OAUTH_STATE_COOKIE, state, {
    ...cookieBase(request),
    path: OAUTH_COOKIE_PATH,
    maxAge: 10 * 60,
  });
}

export function takeOAuthStateCookie(
  request: FastifyRequest,
  reply: FastifyReply,
): string | undefined {
  const state = request.cookies[OAUTH_STATE_COOKIE];
  reply.clearCookie(OAUTH_STATE_COOKIE, { ...cookieBase(request), path: OAUTH_COOKIE_PATH });
  return state || undefined;
}
