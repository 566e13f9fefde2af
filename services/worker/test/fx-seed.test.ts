import { loadConfig } from '@lockdrop/config';
import { describe, expect, it } from 'vitest';
import seedFile from '../seed/exchange-rates.json' with { type: 'json' };
import { configSchema } from '../src/config.js';
import { ratesAgainstUsd } from '../src/domain/fx/rates.js';
import { seedRateSet } from '../src/domain/fx/seed.js';

const SEED_AS_OF = new Date(seedFile.asOf);

describe('the shipped seed', () => {
  it('covers every currency the worker prices by default, with positive decimal rates', () => {
    const defaults = loadConfig(configSchema, {});
    expect(defaults.FX_SOURCE).toBe('seed');
    expect(() => ratesAgainstUsd(seedFile.rates, defaults.FX_CURRENCIES)).not.toThrow();
    const seed = seedRateSet();
    expect(seed.fetchedAt.toISOString()).toBe(SEED_AS_OF.toISOString());
    expect(seed.rates).toHaveLength(defaults.FX_CURRENCIES.length - 1);
    for (const rate of seed.rates) expect(rate.rate).toMatch(/^\d+(\.\d+)?$/);
  });

  it('is refused when a rate is not positive', () => {
    expect(() => seedRateSet({ ...seedFile, rates: { ...seedFile.rates, NGN: '0' } })).toThrow();
  });
});

describe('configuration', () => {
  it('refuses FX_SOURCE=url without FX_URL and FX_SOURCE=flutterwave without a key', () => {
    expect(() => loadConfig(configSchema, { FX_SOURCE: 'url' })).toThrow(/FX_URL/);
    expect(() => loadConfig(configSchema, { FX_SOURCE: 'flutterwave' })).toThrow(/FLW_SECRET_KEY/);
  });
});
