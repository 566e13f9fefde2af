import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '@lockdrop/config';
import { describe, expect, it } from 'vitest';
import { configSchema, PUBLISHED_WEBHOOK_SECRETS } from '../src/config.js';

const LIVE_KEY = 'FLWSECK-0123456789abcdef0123456789abcdef-X';
const TEST_KEY = 'FLWSECK_TEST-0123456789abcdef0123456789abcdef-X';
/** A private webhook secret, as an operator makes one (production refuses published examples). */
const HASH = randomBytes(18).toString('base64url');
const PAYOUT_KEYS = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
const INSTRUCTION_KEYS = `i1:${Buffer.alloc(32, 9).toString('base64')}`;
const production = {
  NODE_ENV: 'production',
  PAYOUT_ENCRYPTION_KEYS: PAYOUT_KEYS,
  PAYOUT_INSTRUCTION_KEYS: INSTRUCTION_KEYS,
};

const load = (env: Record<string, string>) => () => loadConfig(configSchema, env);

describe('payments configuration in production', () => {
  it('refuses the sandbox by default, since its Pay button makes every product free', () => {
    expect(load(production)).toThrow(ConfigError);
    expect(load(production)).toThrow(/PAYMENT_PROVIDER: production refuses test payments/);
  });

  it('refuses a Flutterwave test key', () => {
    const env = {
      ...production,
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: TEST_KEY,
      FLW_WEBHOOK_HASH: HASH,
    };
    expect(load(env)).toThrow(/production refuses test payments/);
  });

  it('starts with live Flutterwave keys', () => {
    const config = loadConfig(configSchema, {
      ...production,
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: LIVE_KEY,
      FLW_WEBHOOK_HASH: HASH,
    });
    expect(config.PAYMENT_PROVIDER).toBe('flutterwave');
  });

  it('runs a demo on the sandbox only when asked to, and never with the public webhook secret', () => {
    const demo = { ...production, ALLOW_TEST_PAYMENTS: 'true' };
    expect(load(demo)).toThrow(/SANDBOX_WEBHOOK_SECRET: must be set to a private value/);
    const config = loadConfig(configSchema, {
      ...demo,
      SANDBOX_WEBHOOK_SECRET: HASH,
    });
    expect(config.PAYMENT_PROVIDER).toBe('sandbox');
  });

  it('keeps the sandbox as the zero-setup default in development', () => {
    expect(loadConfig(configSchema, {}).PAYMENT_PROVIDER).toBe('sandbox');
  });

  it('refuses to keep payout details under the public development key, or a malformed one', () => {
    const live = {
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: LIVE_KEY,
      FLW_WEBHOOK_HASH: HASH,
    };
    expect(load(live)).toThrow(/PAYOUT_ENCRYPTION_KEYS: production needs its own key/);
    expect(load({ ...live, PAYOUT_ENCRYPTION_KEYS: 'k1:dG9vLXNob3J0' })).toThrow(
      /must be 32 bytes/,
    );
    const config = loadConfig(configSchema, {
      ...live,
      PAYOUT_ENCRYPTION_KEYS: PAYOUT_KEYS,
      PAYOUT_INSTRUCTION_KEYS: INSTRUCTION_KEYS,
    });
    expect(config.PAYOUT_ENCRYPTION_KEYS.map((key) => key.id)).toEqual(['k1']);
  });

  it("refuses to seal the worker's payout instructions under the public key, or the at-rest one", () => {
    const live = {
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: LIVE_KEY,
      FLW_WEBHOOK_HASH: HASH,
      PAYOUT_ENCRYPTION_KEYS: PAYOUT_KEYS,
    };
    expect(load(live)).toThrow(/PAYOUT_INSTRUCTION_KEYS: production needs its own key/);
    // The worker holds this key: it must not open the destinations payments keeps at rest.
    expect(load({ ...live, PAYOUT_INSTRUCTION_KEYS: PAYOUT_KEYS.replace('k1:', 'i1:') })).toThrow(
      /PAYOUT_INSTRUCTION_KEYS: must not reuse a PAYOUT_ENCRYPTION_KEYS key/,
    );
    expect(
      loadConfig(configSchema, { ...live, PAYOUT_INSTRUCTION_KEYS: INSTRUCTION_KEYS })
        .PAYOUT_INSTRUCTION_KEYS,
    ).toHaveLength(1);
  });

  it('releases earnings before the refund window closes only outside production', () => {
    const live = {
      ...production,
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: LIVE_KEY,
      FLW_WEBHOOK_HASH: HASH,
    };
    expect(load({ ...live, PAYOUT_HOLD_HOURS: '-24' })).toThrow(
      /PAYOUT_HOLD_HOURS: must be 0 or more/,
    );
    expect(loadConfig(configSchema, { PAYOUT_HOLD_HOURS: '-24' }).PAYOUT_HOLD_HOURS).toBe(-24);
    expect(load({ PAYOUT_HOLD_HOURS: '-25' })).toThrow(/PAYOUT_HOLD_HOURS/);
  });

  it('refuses every webhook secret published in the repository, the compose demo one included', () => {
    const live = {
      ...production,
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: LIVE_KEY,
    };
    const demo = { ...production, ALLOW_TEST_PAYMENTS: 'true' };
    for (const published of PUBLISHED_WEBHOOK_SECRETS) {
      expect(load({ ...demo, SANDBOX_WEBHOOK_SECRET: published })).toThrow(
        /SANDBOX_WEBHOOK_SECRET: is an example published in this repository/,
      );
      expect(load({ ...live, FLW_WEBHOOK_HASH: ` ${published.toUpperCase()} ` })).toThrow(
        /FLW_WEBHOOK_HASH: is an example published in this repository/,
      );
    }
    // The compose demo's default, by name: it was the way in to every sandbox purchase.
    expect(PUBLISHED_WEBHOOK_SECRETS).toContain('compose-demo-sandbox-webhook-secret');
    expect(
      load({ ...demo, SANDBOX_WEBHOOK_SECRET: 'compose-demo-sandbox-webhook-secret' }),
    ).toThrow(ConfigError);
    // Outside production the examples still work (tests and local runs sign with them).
    expect(
      loadConfig(configSchema, { SANDBOX_WEBHOOK_SECRET: 'compose-demo-sandbox-webhook-secret' })
        .SANDBOX_WEBHOOK_SECRET,
    ).toBe('compose-demo-sandbox-webhook-secret');
    expect(loadConfig(configSchema, { ...live, FLW_WEBHOOK_HASH: HASH }).FLW_WEBHOOK_HASH).toBe(
      HASH,
    );
    expect(
      loadConfig(configSchema, { ...demo, SANDBOX_WEBHOOK_SECRET: HASH }).PAYMENT_PROVIDER,
    ).toBe('sandbox');
  });
});
