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
  /**
   * Throws 403 `store_membership_ended` when the token's actor no longer holds that role, or
   * when a plain token speaks as the owner of a store transferred since it was minted.
   */
  check(request: FastifyRequest): Promise<void>;
  forget(storeId: string, userId: string): void;
  /** Every cached answer about the store (its owner changed). */
  forgetStore(storeId: string): void;
  forgetAll(): void;
  /**
   * The store changed owner at `atSeconds` (`store.ownership_transferred`): every cached answer
   * about it goes and, unless it went back to the account it is, that account's plain tokens
   * minted until then stop. Only tokens still alive matter, so this is kept for an access
   * token's lifetime.
   */
  transferred(storeId: string, atSeconds: number, toUserId: string): void;
}

const actorSchema = z.object({
  sub: z.uuid(),
  act: z.object({ sub: z.uuid(), role: storeRoleSchema }),
});
const plainSchema = z.object({ sub: z.uuid(), iat: z.number() });
/** Longer than any access token lives (identity's are ~15 minutes). */
const TRANSFER_MEMORY_MS = 60 * 60 * 1000;
const answerSchema = z.object({ active: z.boolean(), role: storeRoleSchema.nullable() });

/** The presented access token's claims, read without verifying (services verify). */
function claimsOf(headers: FastifyRequest['headers']): object | null {
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
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
}

/** The presented access token's store and actor, read without verifying (services verify). */
export function actorOf(
  headers: FastifyRequest['headers'],
): { storeId: string; userId: string; role: StoreRole } | null {
  const claims = claimsOf(headers);
  if (!claims || !('act' in claims)) return null;
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
  const transfers = new Map<string, { atSeconds: number; until: number }>();
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
      if (transfers.size > 0) refuseFormerOwner(request.headers);
      const actor = actorOf(request.headers);
      if (!actor) return;
      const role = await ask(actor.storeId, actor.userId, request);
      // Fail closed: gone, or holding another role than the token claims.
      if (role !== actor.role) throw ended();
    },
    forget: (storeId, userId) => void cache.delete(keyOf(storeId, userId)),
    forgetAll: () => cache.clear(),
    forgetStore,
    transferred(storeId, atSeconds, toUserId) {
      forgetStore(storeId);
      for (const [id, entry] of transfers) if (entry.until <= now()) transfers.delete(id);
      // Back to the account it is: its plain tokens speak for the owner again.
      if (toUserId === storeId) transfers.delete(storeId);
      else transfers.set(storeId, { atSeconds, until: now() + TRANSFER_MEMORY_MS });
    },
  };

  function forgetStore(storeId: string) {
    for (const key of cache.keys()) if (key.startsWith(`${storeId}:`)) cache.delete(key);
  }

  // A plain token (no actor) is the store's owner speaking; while the store is someone else's,
  // identity mints none for the account it is (its person acts as a member), so one minted up
  // to the transfer's second speaks for someone who no longer owns it.
  function refuseFormerOwner(headers: FastifyRequest['headers']) {
    const claims = claimsOf(headers);
    if (!claims || 'act' in claims) return;
    const plain = plainSchema.safeParse(claims);
    if (!plain.success) return;
    const transfer = transfers.get(plain.data.sub);
    if (transfer && transfer.until > now() && plain.data.iat <= transfer.atSeconds) throw ended();
  }
}
