import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { upsertRate } from '../db/exchange-rates.repo.js';

/** Keeps exchange_rates current from the worker's rate job; each event is applied once. */
export function subscribeToFxRates(bus: Bus, pool: Pool): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'catalog.fx-rates',
    filter: 'fx.rates.updated',
    pool,
    async handler(event, tx) {
      if (event.type !== 'fx.rates.updated') return;
      const { source, rates } = event.data;
      const updatedAt = new Date(event.occurredAt);
      for (const rate of rates) {
        await upsertRate(tx, { ...rate, source, updatedAt });
      }
    },
  });
}
