import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogHarness, makeProduct, publish, type CatalogHarness } from './support.js';

/**
 * Issue 30, item 8, on the product page: with FX_MAX_RATE_AGE_HOURS set, a rate older than that
 * is treated as missing — the price shows in the product's own currency with the spec's warning
 * (payments refuses to charge in another currency on the same rates).
 */
let harness: CatalogHarness;
const HOUR = 3_600_000;

beforeAll(async () => {
  harness = await createCatalogHarness({ FX_MAX_RATE_AGE_HOURS: '48' });
});
afterAll(() => harness?.close());

async function publishNgnRate(rate: string, occurredAt: Date) {
  const bus = await harness.connectBus();
  await bus.publish(
    createEvent(
      'fx.rates.updated',
      { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate }] },
      { correlationId: 'stale-fx', occurredAt },
    ),
  );
}

describe('a price in another currency on old rates', () => {
  it('is shown in the product currency with the warning once the rate is older than the bound', async () => {
    const seller = await harness.seller({ plan: 'business' });
    const product = await makeProduct(harness, seller, { price: '10.00', currency: 'USD' });
    await publish(harness, seller, product.id);
    const shown = async () =>
      (
        await harness.app.inject({
          url: `/api/products/${product.id}?currency=NGN&countView=false`,
        })
      ).json().display;

    const publishedAt = new Date(Date.now() - HOUR);
    await publishNgnRate('1600', publishedAt);
    await expect.poll(async () => (await shown()).converted, { timeout: 10_000 }).toBe(true);
    expect((await shown()).amountMinor).toBe(1_600_000);

    harness.setNow(new Date(publishedAt.getTime() + 48 * HOUR + 60_000));
    expect(await shown()).toEqual({
      amountMinor: 1000,
      currency: 'USD',
      amount: '10.00',
      formatted: '$10.00',
      converted: false,
      warning: {
        code: 'exchange_rate_missing',
        message: 'No exchange rate from USD to NGN; showing the price in USD',
      },
    });
    harness.setNow(null);
  });
});
