import { ACCESS_COOKIE } from '@lockdrop/auth';
import { storeRoleSchema, type StoreRole } from '@lockdrop/contracts';
import { AppError, REQUEST_ID_HEADER } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Removal takes effect at once (issue 28). A member acting for a store carries an access token
 * whose `sub` is the store and whose `act` names them and their role; services verify it and
 * trust it until it expires (~15 min). The gateway, which sees every request, asks identity
 * whether that membership still stands with that role before forwarding — so a removed member
 * (or one whose role changed) is refused on their next request, not at expiry.
 *
 * Why ask identity (cached) rather than keep a Redis set fed by the event: identity's table is
 * the truth and an answer from it can never be missing; a set fed by a live watch would miss a
 * removal made while this replica was disconnected. The cache lasts at most
 * TEAM_MEMBERSHIP_CACHE_SECONDS and is dropped at once by the replica that forwarded the removal
 * or role change, and by every replica when `store.member_removed|member_role_changed` goes by
 * (all of it when the watch had a gap), as the API-key cache is.
 */
export interface MembershipCheck {
  /** Throws 403 `store_membership_ended` when the token's actor no longer holds that role. */
  check(request: FastifyRequest): Promise<void>;
  forget(storeId: string, userId: string): void;
  forgetAll(): void;
}

const actorSchema = z.object({
  sub: z.uuid(),
  act: z.object({ sub: z.uuid(), role: storeRoleSchema }),
});
const answerSchema = z.object({ active: z.boolean(), role: storeRoleSchema.nullable() });

/** The presented access token's store and actor, read without verifying (services verify). */
export function actorOf(
  headers: FastifyRequest['headers'],
): { storeId: string; userId: string; role: StoreRole } | null {
  const authorization = headers.authorization;
  let token: string | undefined;
  if (authorization?.startsWith('Bearer ')) token = authorization.slice(7).trim();
  else {
    const cookies = headers.cookie;
    if (!cookies || !cookies.includes(`${ACCESS_COOKIE}=`)) return null;
    const match = new RegExp(`(?:^|;\\s*)${ACCESS_COOKIE}=([^;]+)`).exec(cookies);
    token = match?.[1];
  }
  const payload = token?.split('.')[1];
  // API keys (ld_…) and anything not shaped like a JWT carry no actor.
  if (!payload) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!claims || typeof claims !== 'object' || !('act' in claims)) return null;
  const parsed = actorSchema.safeParse(claims);
  // A malformed actor claim is refused by every service's verifier; nothing to ask here.
  if (!parsed.success) return null;
  return { storeId: parsed.data.sub, userId: parsed.data.act.sub, role: parsed.data.act.role };
}

const ended = () =>
  new AppError(
    'store_membership_ended',
    403,
    'You are no longer a member of this store with this role: switch back to your account',
  );
const identityUnavailable = () =>
  new AppError('service_unavailable', 503, 'Cannot check your store membership right now');

export function createMembershipCheck({
  identityUrl,
  ttlMs,
  now = Date.now,
}: {
  identityUrl: string;
  ttlMs: number;
  now?: () => number;
}): MembershipCheck {
  const cache = new Map<string, { role: StoreRole | null; until: number }>();
  const keyOf = (storeId: string, userId: string) => `${storeId}:${userId}`;

  const ask = async (storeId: string, userId: string, request: FastifyRequest) => {
    const key = keyOf(storeId, userId);
    const cached = cache.get(key);
    if (cached && cached.until > now()) return cached.role;
    let response: Response;
    try {
      response = await fetch(
        new URL(`/internal/stores/${storeId}/members/${userId}`, identityUrl),
        {
          headers: { [REQUEST_ID_HEADER]: String(request.id) },
          signal: AbortSignal.timeout(3_000),
        },
      );
    } catch (error) {
      request.log.warn({ err: error }, 'identity unreachable for a store membership check');
      throw identityUnavailable();
    }
    if (!response.ok) throw identityUnavailable();
    const answer = answerSchema.parse(await response.json());
    const role = answer.active ? answer.role : null;
    if (ttlMs > 0) cache.set(key, { role, until: now() + ttlMs });
    return role;
  };

  return {
    async check(request) {
      const actor = actorOf(request.headers);
      if (!actor) return;
      const role = await ask(actor.storeId, actor.userId, request);
      // Fail closed: gone, or holding another role than the token claims.
      if (role !== actor.role) throw ended();
    },
    forget: (storeId, userId) => void cache.delete(keyOf(storeId, userId)),
    forgetAll: () => cache.clear(),
  };
}
