import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSecretBox,
  refuseDevelopmentKey,
  secretKeysEnv,
  usesDevelopmentKey,
} from '../src/secret-box.js';

const DEVELOPMENT = `dev:${randomBytes(32).toString('base64')}`;
const own = () => `k1:${randomBytes(32).toString('base64')}`;

describe('secret-box keys from the environment', () => {
  it('defaults to the development key and reads a rotation list, newest first', () => {
    const schema = secretKeysEnv(DEVELOPMENT);
    expect(schema.parse(undefined).map((key) => key.id)).toEqual(['dev']);
    const rotated = `${own()},${DEVELOPMENT.replace('dev:', 'k0:')}`;
    expect(schema.parse(rotated).map((key) => key.id)).toEqual(['k1', 'k0']);
  });

  it('refuses a key that is not 32 bytes, saying why', () => {
    const result = secretKeysEnv(DEVELOPMENT).safeParse('k1:dG9vLXNob3J0');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/must be 32 bytes/);
  });

  it('recognises the published development key under any id, and only it', () => {
    const schema = secretKeysEnv(DEVELOPMENT);
    expect(
      usesDevelopmentKey(schema.parse(DEVELOPMENT.replace('dev:', 'prod:')), DEVELOPMENT),
    ).toBe(true);
    expect(usesDevelopmentKey(schema.parse(own()), DEVELOPMENT)).toBe(false);
  });

  it('refuses the development key in production only, naming the setting and what to set', () => {
    const config = z
      .object({ NODE_ENV: z.string(), SEAL_KEYS: secretKeysEnv(DEVELOPMENT) })
      .refine(...refuseDevelopmentKey('SEAL_KEYS', DEVELOPMENT, 'set SEAL_KEYS=k1:<32 bytes>'));
    expect(config.safeParse({ NODE_ENV: 'development' }).success).toBe(true);
    expect(config.safeParse({ NODE_ENV: 'production', SEAL_KEYS: own() }).success).toBe(true);
    const refused = config.safeParse({
      NODE_ENV: 'production',
      SEAL_KEYS: DEVELOPMENT.replace('dev:', 'prod:'),
    });
    expect(refused.error?.issues).toMatchObject([
      {
        path: ['SEAL_KEYS'],
        message: 'set SEAL_KEYS=k1:<32 bytes>; the development key is public',
      },
    ]);
  });

  it('opens with any listed key what the first sealed, and nothing sealed under an unlisted key', () => {
    const [older, newer] = [own().replace('k1', 'old'), own()];
    const sealedBefore = createSecretBox(secretKeysEnv(DEVELOPMENT).parse(older)).seal(
      'acct 0123',
      'row-1',
    );
    const rotated = createSecretBox(secretKeysEnv(DEVELOPMENT).parse(`${newer},${older}`));
    expect(rotated.open(sealedBefore, 'row-1')).toBe('acct 0123');
    expect(rotated.needsReseal(sealedBefore)).toBe(true);
    expect(rotated.needsReseal(rotated.seal('acct 0123', 'row-1'))).toBe(false);
    expect(() =>
      createSecretBox(secretKeysEnv(DEVELOPMENT).parse(newer)).open(sealedBefore, 'row-1'),
    ).toThrow();
  });
});

describe('a sealed secret is bound to its row', () => {
  const box = createSecretBox(secretKeysEnv(DEVELOPMENT).parse(own()));

  it('does not open in another row: a ciphertext copied from one seller to another is refused', () => {
    const sealed = box.seal('{"accountNumber":"0123456789"}', 'payout-destination:seller-a:d1');
    expect(box.open(sealed, 'payout-destination:seller-a:d1')).toContain('0123456789');
    expect(() => box.open(sealed, 'payout-destination:seller-b:d2')).toThrow();
  });

  it('refuses a shortened tag (GCM would otherwise accept a 4-byte one)', () => {
    const sealed = box.seal('secret', 'row');
    const parts = sealed.split('.');
    parts[3] = Buffer.from(parts[3]!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.open(parts.join('.'), 'row')).toThrow(/truncated tag/);
  });

  it('still opens text sealed before contexts existed, and asks for it to be sealed again', () => {
    const keys = secretKeysEnv(DEVELOPMENT).parse(own());
    const { id, key } = keys[0]!;
    // The format before contexts: the key id alone was the authenticated data.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(id));
    const ciphertext = Buffer.concat([cipher.update('old secret', 'utf8'), cipher.final()]);
    const legacy = [id, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    const current = createSecretBox(keys);
    expect(current.open(legacy, 'any row')).toBe('old secret');
    expect(current.needsReseal(legacy)).toBe(true);
  });
});
