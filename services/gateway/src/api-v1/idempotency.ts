import { createHash } from 'node:crypto';
import { AppError } from '@lockdrop/http';
import type { Redis } from 'ioredis';

/** A replayed answer is kept this long (issue 27: 24 h). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A request still running after this is taken as lost (its process died); the key frees up. */
const IN_FLIGHT_TTL_SECONDS = 5 * 60;

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

type Entry =
  | { state: 'running'; fingerprint: string }
  | ({ state: 'done'; fingerprint: string } & StoredAnswer);

export const idempotencyErrors = {
  invalidKey: () =>
    new AppError(
      'invalid_idempotency_key',
      400,
      'Idempotency-Key must be 1–255 visible characters',
    ),
  inProgress: () =>
    new AppError(
      'idempotency_in_progress',
      409,
      'A request with this Idempotency-Key is still being processed; retry in a moment',
    ),
  mismatch: () =>
    new AppError(
      'idempotency_key_reused',
      422,
      'This Idempotency-Key was used with a different request; use a new key for a new request',
    ),
};

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** What makes two POSTs "the same request": method, path and the exact body bytes. */
export function fingerprintOf(method: string, url: string, body: Buffer | string): string {
  return createHash('sha256').update(`${method} ${url}\n`).update(body).digest('base64url');
}

/**
 * `Idempotency-Key` for `/api/v1` POSTs, in Redis (shared by every gateway replica), per API key.
 * `begin` claims the key with SET NX, so of two concurrent duplicates exactly one runs; the
 * other gets 409 and, once the first has finished, the stored answer.
 */
export function createIdempotency(redis: Redis, prefix: string) {
  const keyOf = (apiKeyId: string, key: string) => `${prefix}idem:${apiKeyId}:${key}`;
  return {
    async begin(
      apiKeyId: string,
      key: string,
      fingerprint: string,
    ): Promise<{ kind: 'run' } | { kind: 'replay'; answer: StoredAnswer }> {
      if (!KEY_FORMAT.test(key)) throw idempotencyErrors.invalidKey();
      const running: Entry = { state: 'running', fingerprint };
      const claimed = await redis.set(
        keyOf(apiKeyId, key),
        JSON.stringify(running),
        'EX',
        IN_FLIGHT_TTL_SECONDS,
        'NX',
      );
      if (claimed === 'OK') return { kind: 'run' };
      const stored = await redis.get(keyOf(apiKeyId, key));
      if (!stored) return this.begin(apiKeyId, key, fingerprint);
      const entry = JSON.parse(stored) as Entry;
      if (entry.fingerprint !== fingerprint) throw idempotencyErrors.mismatch();
      if (entry.state === 'running') throw idempotencyErrors.inProgress();
      return {
        kind: 'replay',
        answer: { status: entry.status, contentType: entry.contentType, body: entry.body },
      };
    },
    /** Keeps the answer for 24 h; a 5xx is not kept, so the client's retry runs again. */
    async finish(apiKeyId: string, key: string, fingerprint: string, answer: StoredAnswer) {
      if (answer.status >= 500) {
        await redis.del(keyOf(apiKeyId, key));
        return;
      }
      const done: Entry = { state: 'done', fingerprint, ...answer };
      await redis.set(keyOf(apiKeyId, key), JSON.stringify(done), 'EX', IDEMPOTENCY_TTL_SECONDS);
    },
    release: (apiKeyId: string, key: string) =>
      redis.del(keyOf(apiKeyId, key)).then(() => undefined),
  };
}
export type Idempotency = ReturnType<typeof createIdempotency>;
