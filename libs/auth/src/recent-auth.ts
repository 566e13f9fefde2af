import { AppError } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';

export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

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
  const authTime = request.user?.authTime;
  if (authTime === undefined || nowMs / 1000 - authTime > maxAgeSeconds)
    throw new AppError(
      REAUTHENTICATION_REQUIRED,
      403,
      "Please confirm it's you: enter your password (or code) again",
      { maxAgeSeconds },
    );
}
