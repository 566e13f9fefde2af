import { z } from 'zod';
import seedFile from '../../../seed/exchange-rates.json' with { type: 'json' };
import { rateFeedSchema, ratesAgainstUsd, type RateSet } from './rates.js';

const seedSchema = rateFeedSchema.extend({ asOf: z.iso.datetime({ offset: true }) });

/**
 * The rates shipped in seed/exchange-rates.json (bundled into the build, so every install has
 * them): what a fresh install publishes before its first refresh, dated as of the file.
 */
export function seedRateSet(file: unknown = seedFile): RateSet {
  const seed = seedSchema.parse(file);
  return {
    source: 'seed',
    fetchedAt: new Date(seed.asOf),
    rates: ratesAgainstUsd(seed.rates, Object.keys(seed.rates)),
  };
}
