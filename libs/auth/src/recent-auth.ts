import { AppError } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';

export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

/**
 * The rule behind `requireRecentAuth`, for callers that know the proof's time another way
 * (identity reads it from the live session row): throws 403 `reauthentication_required` unless
 * `authTimeSeconds` (Unix seconds) lies within `maxAgeSeconds`.
 */
export function assertRecentAuth(
  authTimeSeconds: number | undefined,
  maxAgeSeconds: number,
  nowMs: number = Date.now(),
): void {
  if (authTimeSeconds === undefined || nowMs / 1000 - authTimeSeconds > maxAgeSeconds)
    throw new AppError(
      REAUTHENTICATION_REQUIRED,
      403,
      "Please confirm it's you: enter your password (or code) again",
      { maxAgeSeconds },
    );
}

/**
 * For actions a stolen session must not take (where payouts go): the caller must have proved
 * who they are within `maxAgeSeconds`, by the token's `auth_time`. Otherwise 403
 * `reauthentication_required`; the client then asks identity's `POST /api/auth/reauthenticate`
 * for a token with a fresh `auth_time` and retries. Call after `app.authenticate`.
 */
export function requireRecentAuth(
  request: FastifyRequest,
  maxAgeSeconds: number,
  nowMs: number = Date.now(),
): void {
  assertRecentAuth(request.user?.authTime, maxAgeSeconds, nowMs);
}
