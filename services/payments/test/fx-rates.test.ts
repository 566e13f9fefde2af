import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, waitFor, type Harness } from './support.js';

/** The checkout snapshot's rates come from the worker's fx.rates.updated; the newest per pair wins. */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness?.close());

const publishRates = (rates: { from: string; to: string; rate: string }[], occurredAt: Date) =>
  harness.publish(
    createEvent('fx.rates.updated', { source: 'test', rates }, { correlationId: 'fx', occurredAt }),
  );

const rateTo = async (currency: string) =>
  (
    await harness.pool.query<{ rate: string }>(
      'SELECT rate FROM exchange_rates WHERE from_currency = $1 AND to_currency = $2',
      ['USD', currency],
    )
  ).rows[0]?.rate;

describe('exchange rates for the checkout snapshot', () => {
  it('keep the newest rate of each pair, whatever order the sets arrive in', async () => {
    // The shipped seed (dated days ago), then a refresh.
    await publishRates([{ from: 'USD', to: 'NGN', rate: '1455.5' }], new Date('2026-01-01Z'));
    await publishRates([{ from: 'USD', to: 'NGN', rate: '1550.5' }], new Date('2026-01-02Z'));
    await waitFor(async () => (await rateTo('NGN')) === '1550.5');

    // An older set delivered late, then a marker proving it was handled.
    await publishRates([{ from: 'USD', to: 'NGN', rate: '999' }], new Date('2025-12-31Z'));
    await publishRates([{ from: 'USD', to: 'KES', rate: '129.2' }], new Date('2026-01-03Z'));
    await waitFor(async () => (await rateTo('KES')) === '129.2');
    expect(await rateTo('NGN')).toBe('1550.5');
  });
});
