import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * AES-256-GCM for secrets at rest (payout details, webhook signing secrets). Keys carry an id so
 * they can be rotated: new secrets are sealed with the first key, and any listed key opens what it
 * sealed. Sealed text is `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url). The authenticated data
 * is the key id and the caller's `context` — the row the secret belongs to — so a ciphertext copied
 * into another row, or replayed under another key id, does not open. The tag is pinned to 16 bytes.
 * Text sealed before contexts existed (`<keyId>.<iv>.<tag>.<ciphertext>`) still opens, unbound,
 * until `needsReseal` finds it and the owner re-seals it.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Sealed unbound (before contexts) or under a key other than the first: seal it again. */
  needsReseal(sealed: string): boolean;
}

export interface SecretKey {
  id: string;
  key: Buffer;
}

/** Parses `id:base64key[,id:base64key…]`; each key must be 32 bytes. Throws with a reason. */
export function parseSecretKeys(value: string): SecretKey[] {
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const separator = entry.indexOf(':');
      if (separator < 1) throw new Error('each key is written as <id>:<base64 of 32 bytes>');
      const id = entry.slice(0, separator);
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
        throw new Error(`key id "${id}" must be 1–32 letters, digits, _ or -`);
      const key = Buffer.from(entry.slice(separator + 1), 'base64');
      if (key.length !== 32)
        throw new Error(`key "${id}" must be 32 bytes (openssl rand -base64 32)`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error('at least one key is needed');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('key ids must differ');
  return keys;
}

/**
 * A setting holding secret-box keys (`id:base64(32 bytes)[,id:key…]`; the first seals, all open),
 * defaulting to a development key outside production. Pair it with `refuseDevelopmentKey` in the
 * service's config: the development key is published in the repository.
 */
export function secretKeysEnv(developmentKeys: string) {
  return z
    .string()
    .default(developmentKeys)
    .transform((value, context) => {
      try {
        return parseSecretKeys(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

/**
 * The production refinement a `secretKeysEnv` setting needs, as `.refine(...)`'s two arguments:
 * production refuses to start on a published development key. `need` says what to set instead.
 */
export function refuseDevelopmentKey<Setting extends string>(
  setting: Setting,
  developmentKeys: string,
  need: string,
): [
  check: (config: { NODE_ENV: string } & Record<Setting, SecretKey[]>) => boolean,
  params: { path: [Setting]; message: string },
] {
  return [
    (config) =>
      config.NODE_ENV !== 'production' || !usesDevelopmentKey(config[setting], developmentKeys),
    { path: [setting], message: `${need}; the development key is public` },
  ];
}

/** Whether any of `keys` is one of the published development keys. */
export function usesDevelopmentKey(keys: SecretKey[], developmentKeys: string): boolean {
  const published = parseSecretKeys(developmentKeys).map((k) => k.key.toString('base64'));
  return keys.some((key) => published.includes(key.key.toString('base64')));
}

const FORMAT = 'v2';
const TAG_BYTES = 16;

const additionalData = (keyId: string, context: string | null) =>
  Buffer.from(context === null ? keyId : `${FORMAT}\0${keyId}\0${context}`);

export function createSecretBox(keys: SecretKey[]): SecretBox {
  const [current] = keys;
  if (!current) throw new Error('a secret box needs a key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));

  /** The parts of sealed text; `context` null for text sealed before contexts. */
  const parse = (sealed: string) => {
    const parts = sealed.split('.');
    const bound = parts[0] === FORMAT;
    const [id, iv, tag, ciphertext] = bound ? parts.slice(1) : parts;
    if (parts.length !== (bound ? 5 : 4) || !id || !iv || !tag || ciphertext === undefined)
      throw new Error('sealed secret is malformed');
    return { bound, id, iv, tag, ciphertext };
  };

  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(current.id, context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [FORMAT, current.id, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const { bound, id, iv, tag, ciphertext } = parse(sealed);
      const key = byId.get(id);
      if (!key) throw new Error(`sealed secret uses unknown key "${id}"`);
      const authTag = Buffer.from(tag, 'base64url');
      if (authTag.length !== TAG_BYTES) throw new Error('sealed secret has a truncated tag');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(additionalData(id, bound ? context : null));
      decipher.setAuthTag(authTag);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
    needsReseal(sealed) {
      const { bound, id } = parse(sealed);
      return !bound || id !== current.id;
    },
  };
}
