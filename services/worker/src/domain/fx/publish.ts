import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { hasRateSets, insertRateSet, latestRates, lockRateSets } from '../../db/rate-sets.repo.js';
import { assertPlausible, type RateSet } from './rates.js';

/**
 * Stores `set` in the history and emits `fx.rates.updated` in one transaction, dated when the
 * source gave the rates (the seed's as-of date), so consumers see how old they are. A set whose
 * rates moved more than `maxChangePercent` since the last one is refused (RateSourceError).
 */
export function publishRateSet(
  pool: Pool,
  set: RateSet,
  correlationId: string,
  maxChangePercent = 0,
): Promise<void> {
  return withTransaction(pool, async (tx) => {
    await lockRateSets(tx);
    assertPlausible(await latestRates(tx), set.rates, maxChangePercent);
    await storeAndEmit(tx, set, correlationId);
  });
}

/** Publishes `seed` if no set was ever published; true when it did. Replicas seed once. */
export function publishSeedIfEmpty(pool: Pool, seed: RateSet): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    await lockRateSets(tx);
    if (await hasRateSets(tx)) return false;
    await storeAndEmit(tx, seed, 'fx-seed');
    return true;
  });
}

async function storeAndEmit(tx: Queryable, set: RateSet, correlationId: string): Promise<void> {
  const event = createEvent(
    'fx.rates.updated',
    { source: set.source, rates: set.rates },
    { correlationId, occurredAt: set.fetchedAt },
  );
  await insertRateSet(tx, event.id, set);
  await enqueueEvent(tx, event);
}
