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
 * The client as Fastify's `trustProxy` sees it (libs/service): X-Forwarded-For and -Proto count
 * only when the hop that sent them is the gateway on a private network or loopback, so a client
 * that reaches identity directly cannot pick the IP its rate limits and sessions are keyed on.
 */
export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
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
