import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, secretKeysEnv, usesDevelopmentKey } from '../src/secret-box.js';

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

  it('opens with any listed key what the first sealed, and nothing sealed under an unlisted key', () => {
    const [older, newer] = [own().replace('k1', 'old'), own()];
    const sealedBefore = createSecretBox(secretKeysEnv(DEVELOPMENT).parse(older)).seal('acct 0123');
    const rotated = createSecretBox(secretKeysEnv(DEVELOPMENT).parse(`${newer},${older}`));
    expect(rotated.open(sealedBefore)).toBe('acct 0123');
    expect(() =>
      createSecretBox(secretKeysEnv(DEVELOPMENT).parse(newer)).open(sealedBefore),
    ).toThrow();
  });
});
