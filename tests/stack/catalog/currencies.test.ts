import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
} from './support.js';

let harness: CatalogHarness;

beforeAll(async () => {
  harness = await createCatalogHarness();
});
afterAll(() => harness?.close());

const SEEDED = ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD', 'GHS', 'KES', 'ZAR', 'UGX', 'XOF'];
const FALLBACK = ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD'];

const currencies = async () => (await harness.app.inject({ url: '/api/currencies' })).json();
const rates = async () => (await harness.app.inject({ url: '/api/exchange-rates' })).json().rates;

async function publishRates(
  source: string,
  list: { from: string; to: string; rate: string }[],
  occurredAt?: Date,
) {
  const bus = await harness.connectBus();
  const event = createEvent(
    'fx.rates.updated',
    { source, rates: list },
    {
      correlationId: 'test-fx',
      ...(occurredAt ? { occurredAt } : {}),
    },
  );
  await bus.publish(event);
  return event;
}

describe('supported currencies', () => {
  it('come from platform_settings', async () => {
    expect(await currencies()).toEqual({ currencies: SEEDED, source: 'settings' });
  });

  it.each([
    ['missing', `DELETE FROM platform_settings WHERE setting_key = 'supported_currencies'`],
    [
      'malformed',
      `UPDATE platform_settings SET setting_value = '"USD,EUR"' WHERE setting_key = 'supported_currencies'`,
    ],
    [
      'empty',
      `UPDATE platform_settings SET setting_value = '[]' WHERE setting_key = 'supported_currencies'`,
    ],
  ])('fall back to the spec list when the setting is %s', async (_case, sql) => {
    const { rows } = await harness.pool.query(
      `SELECT setting_value FROM platform_settings WHERE setting_key = 'supported_currencies'`,
    );
    await harness.pool.query(sql);
    try {
      expect(await currencies()).toEqual({ currencies: FALLBACK, source: 'fallback' });
    } finally {
      await harness.pool.query(
        `INSERT INTO platform_settings (setting_key, setting_value) VALUES ('supported_currencies', $1)
         ON CONFLICT (setting_key) DO UPDATE SET setting_value = EXCLUDED.setting_value`,
        [JSON.stringify(rows[0].setting_value)],
      );
    }
  });
});

describe('exchange rates from fx.rates.updated', () => {
  it('start empty (no invented seed rates), then hold what the rate job published', async () => {
    expect((await harness.app.inject({ url: '/api/exchange-rates' })).json()).toEqual({
      rates: [],
      asOf: null,
      stale: false,
    });
    const event = await publishRates('test-feed', [
      { from: 'USD', to: 'NGN', rate: '1500.5' },
      { from: 'EUR', to: 'USD', rate: '1.08' },
      { from: 'GBP', to: 'USD', rate: '1.25' },
      { from: 'USD', to: 'KES', rate: '129.3' },
      { from: 'USD', to: 'UGX', rate: '3700' },
    ]);
    const stored = await waitUntil(rates, (list) => list.length === 5);
    expect(stored).toContainEqual({
      from: 'USD',
      to: 'NGN',
      rate: '1500.5',
      source: 'test-feed',
      updatedAt: event.occurredAt,
    });
  });

  it('ignores an older rate arriving after a newer one', async () => {
    await publishRates(
      'late-feed',
      [{ from: 'USD', to: 'NGN', rate: '999' }],
      new Date('2001-01-01T00:00:00Z'),
    );
    await publishRates('marker', [{ from: 'CAD', to: 'USD', rate: '0.73' }]);
    await waitUntil(rates, (list) => list.some((rate: { from: string }) => rate.from === 'CAD'));
    expect((await rates()).find((rate: { to: string }) => rate.to === 'NGN').rate).toBe('1500.5');
  });
});

describe('the age of the rates', () => {
  const board = async () => (await harness.app.inject({ url: '/api/exchange-rates' })).json();
  afterAll(() => harness.setNow(null));

  it('is the time of the newest set, stale once it is more than 24 hours old', async () => {
    await waitUntil(rates, (list) => list.length >= 5);
    const newest = new Date((await board()).rates[0].updatedAt);
    expect((await board()).asOf).toBe(newest.toISOString());
    harness.setNow(new Date(newest.getTime() + 24 * 3_600_000));
    expect((await board()).stale).toBe(false);
    harness.setNow(new Date(newest.getTime() + 24 * 3_600_000 + 1000));
    expect((await board()).stale).toBe(true);
  });
});

describe('a product price shown in another currency', () => {
  const products: Record<string, string> = {};

  beforeAll(async () => {
    await waitUntil(rates, (list) => list.length >= 5);
    const seller = await harness.seller({ plan: 'business' });
    for (const [price, currency] of [
      ['10.00', 'USD'],
      ['20.00', 'GBP'],
      ['15005', 'NGN'],
    ] as const) {
      const product = await makeProduct(harness, seller, { price, currency });
      await publish(harness, seller, product.id);
      products[currency] = product.id;
    }
  });

  const shown = async (currency: string, target: string) =>
    (
      await harness.app.inject({
        url: `/api/products/${products[currency]}?currency=${target}&countView=false`,
      })
    ).json();

  it.each([
    [
      'USD',
      'NGN',
      'direct rate',
      {
        amountMinor: 1_500_500,
        currency: 'NGN',
        amount: '15005.00',
        converted: true,
        warning: null,
      },
    ],
    [
      'USD',
      'EUR',
      'inverse of EUR→USD',
      { amountMinor: 926, currency: 'EUR', amount: '9.26', converted: true, warning: null },
    ],
    [
      'NGN',
      'USD',
      'inverse of USD→NGN',
      { amountMinor: 1000, currency: 'USD', amount: '10.00', converted: true, warning: null },
    ],
    [
      'GBP',
      'KES',
      'via USD (GBP→USD→KES)',
      { amountMinor: 323_250, currency: 'KES', amount: '3232.50', converted: true, warning: null },
    ],
    [
      'USD',
      'UGX',
      'into a zero-exponent currency',
      { amountMinor: 37_000, currency: 'UGX', amount: '37000', converted: true, warning: null },
    ],
    [
      'USD',
      'USD',
      'same currency',
      { amountMinor: 1000, currency: 'USD', amount: '10.00', converted: false, warning: null },
    ],
  ])('%s → %s by %s', async (from, to, _path, display) => {
    const product = await shown(from, to);
    expect(product.display).toMatchObject(display);
    expect(product.currency).toBe(from);
  });

  it('shows the amount unconverted with a warning when no rate exists', async () => {
    const product = await shown('USD', 'ZAR');
    expect(product.display).toEqual({
      amountMinor: 1000,
      currency: 'USD',
      amount: '10.00',
      formatted: '$10.00',
      converted: false,
      warning: {
        code: 'exchange_rate_missing',
        message: 'No exchange rate from USD to ZAR; showing the price in USD',
      },
    });
  });

  it('formats the converted amount for display', async () => {
    expect((await shown('USD', 'NGN')).display.formatted).toBe('₦15,005');
  });

  it('refuses a currency the platform does not support', async () => {
    const response = await harness.app.inject({
      url: `/api/products/${products.USD}?currency=JPY`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('unsupported_currency');
  });
});
