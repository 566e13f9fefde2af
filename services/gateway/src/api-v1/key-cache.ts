import { createHash } from 'node:crypto';
import type { ApiKeyIntrospection } from '@lockdrop/contracts';

/**
 * Identity's answers about API keys, kept a few seconds in this replica's memory so a busy key
 * costs identity one call per TTL, not one per request. Keyed by the key's sha256 (the raw key
 * never sits in memory longer than the request). `forget` is the revocation path: this replica
 * when it forwarded the revoke, every replica when `api_key.revoked` goes by on the bus.
 */
export interface KeyCache {
  get(key: string): ApiKeyIntrospection | null;
  set(key: string, answer: ApiKeyIntrospection): void;
  forget(keyId: string): void;
  forgetAll(): void;
}

export function createKeyCache({
  ttlMs,
  now = Date.now,
}: {
  ttlMs: number;
  now?: () => number;
}): KeyCache {
  const entries = new Map<string, { answer: ApiKeyIntrospection; until: number }>();
  const hashOf = (key: string) => createHash('sha256').update(key).digest('base64url');
  return {
    get(key) {
      const hash = hashOf(key);
      const entry = entries.get(hash);
      if (!entry) return null;
      // The internal token must outlive its use upstream: never hand out one about to expire.
      if (entry.until <= now()) {
        entries.delete(hash);
        return null;
      }
      return entry.answer;
    },
    set(key, answer) {
      const tokenUsableUntil = new Date(answer.accessExpiresAt).getTime() - 60_000;
      entries.set(hashOf(key), { answer, until: Math.min(now() + ttlMs, tokenUsableUntil) });
    },
    forget(keyId) {
      for (const [hash, entry] of entries) if (entry.answer.keyId === keyId) entries.delete(hash);
    },
    forgetAll: () => entries.clear(),
  };
}
