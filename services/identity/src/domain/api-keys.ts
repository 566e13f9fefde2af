import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import {
  API_KEY_PATTERN,
  LATEST_API_VERSION,
  createEvent,
  type ApiKeyIntrospection,
  type ApiKeyMode,
  type ApiKeyScope,
} from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { planById } from '@lockdrop/plans';
import * as apiKeys from '../db/api-keys.repo.js';
import { insertAudit } from '../db/teams.repo.js';
import type { KeyRing } from '../keys/key-ring.js';
import { requireAccount, type Client } from './account.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** `ld_live_` plus four characters: enough to tell keys apart, far too little to guess the rest. */
const SHOWN_PREFIX_LENGTH = 'ld_live_'.length + 4;
/** last_used_at/ip are written at most this often per key. */
const LAST_USED_EVERY_SECONDS = 60;

export const apiKeyErrors = {
  planRequired: () =>
    new AppError(
      'plan_required',
      403,
      'Live API keys are part of the Business plan. Upgrade, or create a test key.',
    ),
  expiryInPast: () => new AppError('invalid_expiry', 400, 'The expiry date must be in the future'),
  notFound: () => new AppError('api_key_not_found', 404, 'API key not found'),
  invalidKey: () => new AppError('invalid_api_key', 401, 'Invalid, expired or revoked API key'),
};

/**
 * 40 base62 characters from the CSPRNG (≈238 bits), rejection-sampled so every character is
 * equally likely.
 */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * Who made or revoked a key, from where (the store's audit log, issue 28): the person — a member
 * acting for the store is named, while the key itself is the store's.
 */
export interface KeyActor {
  personId: string;
  client: Client;
}

export interface ApiKeyService {
  /** A key of the store `userId` (the seller account), whoever of its team made it. */
  create(
    userId: string,
    request: { name: string; mode: ApiKeyMode; scopes: ApiKeyScope[]; expiresAt?: string | null },
    by: KeyActor,
  ): Promise<{ apiKey: apiKeys.ApiKeyRecord; secret: string }>;
  list(userId: string): Promise<apiKeys.ApiKeyRecord[]>;
  revoke(userId: string, keyId: string, correlationId: string, by: KeyActor): Promise<void>;
  /** The gateway's question: which seller, scopes and mode does this key stand for, right now? */
  introspect(key: string, ip: string): Promise<ApiKeyIntrospection>;
}

export function createApiKeyService({
  pool,
  keys,
  hashSecret,
}: {
  pool: Pool;
  keys: KeyRing;
  /** API_KEY_HASH_SECRET: the HMAC key, from env only (a secret store in production). */
  hashSecret: string;
}): ApiKeyService {
  /*
   * A keyed hash (HMAC-SHA256), not argon2: the secret is 238 random bits, so no password-style
   * guessing is possible and a slow hash buys nothing; a deterministic hash is what lets the
   * gateway's uncached lookups be one indexed query instead of ~64 ms of argon2 per request (an
   * argon2 salt would also force a scan). The key makes a stolen database alone useless even for
   * checking a leaked key against it.
   */
  const hashOf = (secret: string) => createHmac('sha256', hashSecret).update(secret).digest();

  /** Into the store's one audit log, in the key's own transaction: logged iff it happened. */
  const audit = (
    tx: Parameters<typeof insertAudit>[0],
    storeId: string,
    by: KeyActor,
    action: 'api_key.created' | 'api_key.revoked',
    key: Pick<apiKeys.ApiKeyRecord, 'id' | 'name' | 'mode' | 'prefix'> & { scopes?: ApiKeyScope[] },
  ) =>
    insertAudit(tx, {
      id: randomUUID(),
      storeId,
      actorId: by.personId,
      action,
      target: key.id,
      // Never the secret: what tells the key apart in the list.
      details: {
        name: key.name,
        mode: key.mode,
        prefix: key.prefix,
        ...(key.scopes ? { scopes: key.scopes } : {}),
      },
      ip: by.client.ip,
      userAgent: by.client.userAgent,
    });

  return {
    async create(userId, request, by) {
      const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw apiKeyErrors.expiryInPast();
      const account = await requireAccount(pool, userId);
      if (request.mode === 'live' && !planById(account.profile.plan).apiAccess)
        throw apiKeyErrors.planRequired();
      const secret = `ld_${request.mode}_${randomBase62(SECRET_LENGTH)}`;
      const apiKey = await withTransaction(pool, async (tx) => {
        const inserted = await apiKeys.insertApiKey(tx, {
          id: randomUUID(),
          userId,
          name: request.name,
          mode: request.mode,
          prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
          secretHash: hashOf(secret),
          scopes: request.scopes,
          apiVersion: LATEST_API_VERSION,
          expiresAt,
        });
        await audit(tx, userId, by, 'api_key.created', inserted);
        return inserted;
      });
      return { apiKey, secret };
    },

    list: (userId) => apiKeys.listActiveApiKeys(pool, userId),

    async revoke(userId, keyId, correlationId, by) {
      await withTransaction(pool, async (tx) => {
        const revoked = await apiKeys.revokeApiKey(tx, userId, keyId);
        if (!revoked) throw apiKeyErrors.notFound();
        await audit(tx, userId, by, 'api_key.revoked', revoked);
        await enqueueEvent(
          tx,
          createEvent('api_key.revoked', { keyId, userId }, { correlationId }),
        );
      });
    },

    async introspect(key, ip) {
      // A string not shaped like a key is never looked up.
      if (!API_KEY_PATTERN.test(key)) throw apiKeyErrors.invalidKey();
      const apiKey = await apiKeys.findUsableApiKey(pool, hashOf(key));
      if (!apiKey) throw apiKeyErrors.invalidKey();
      const account = await requireAccount(pool, apiKey.userId);
      // A seller who left Business keeps their test keys; their live keys stop until they return.
      if (apiKey.mode === 'live' && !planById(account.profile.plan).apiAccess)
        throw apiKeyErrors.planRequired();
      await apiKeys.touchApiKey(pool, apiKey.id, ip, LAST_USED_EVERY_SECONDS);
      const access = await keys.signApiKey({
        userId: account.user.id,
        email: account.user.email,
        emailVerified: account.user.emailVerified,
        plan: account.profile.plan,
        apiKey: {
          id: apiKey.id,
          scopes: apiKey.scopes,
          mode: apiKey.mode,
          version: apiKey.apiVersion,
        },
      });
      return {
        keyId: apiKey.id,
        sellerId: apiKey.userId,
        mode: apiKey.mode,
        scopes: apiKey.scopes,
        apiVersion: apiKey.apiVersion,
        accessToken: access.token,
        accessExpiresAt: access.expiresAt.toISOString(),
      };
    },
  };
}
