import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * AES-256-GCM for secrets at rest (payout details, webhook signing secrets). Keys carry an id so they can be rotated: new secrets
 * are sealed with the first key, and any listed key opens what it sealed. Sealed text is
 * `<keyId>.<iv>.<tag>.<ciphertext>` (base64url); the key id is authenticated data, so a
 * ciphertext cannot be replayed under another key id.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
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
 * defaulting to a development key outside production. Pair it with `usesDevelopmentKey` in the
 * service's production refinement: the development key is published in the repository.
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

/** Whether any of `keys` is one of the published development keys. */
export function usesDevelopmentKey(keys: SecretKey[], developmentKeys: string): boolean {
  const published = parseSecretKeys(developmentKeys).map((k) => k.key.toString('base64'));
  return keys.some((key) => published.includes(key.key.toString('base64')));
}

export function createSecretBox(keys: SecretKey[]): SecretBox {
  const [current] = keys;
  if (!current) throw new Error('a secret box needs a key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(current.id));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [current.id, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [id, iv, tag, ciphertext] = sealed.split('.');
      const key = id ? byId.get(id) : undefined;
      if (!key || !iv || !tag || ciphertext === undefined)
        throw new Error(`sealed secret uses unknown key "${id ?? ''}"`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(id!));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
