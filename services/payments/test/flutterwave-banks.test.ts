import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFlutterwaveProvider } from '../src/providers/flutterwave.js';
import { NIGERIAN_BANKS } from '../src/providers/nigerian-banks.js';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';

/**
 * The payout form's bank menu comes from Flutterwave's `GET /v3/banks/NG` (payments-contract §5),
 * cached; a slow, failing or nonsensical answer never leaves the seller with an empty menu
 * (issue 29, item 10).
 */
let fake: FakeFlutterwave;
beforeAll(async () => {
  fake = await startFakeFlutterwave();
  fake.slowMs = 400;
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.failures.banks = 'none';
});

function provider(clock: { ms: number }) {
  const fallbacks: Array<'stale' | 'bundled'> = [];
  const flutterwave = createFlutterwaveProvider({
    baseUrl: fake.baseUrl,
    secretKey: fake.secretKey,
    webhookHash: fake.webhookHash,
    timeoutMs: 200,
    bankListCacheSeconds: 60,
    now: () => clock.ms,
    onBankListFallback: (_error, served) => fallbacks.push(served),
  });
  return { flutterwave, fallbacks };
}

const bankReads = () => fake.requests.filter((line) => line === 'GET /v3/banks/NG').length;
const LIVE = [
  { code: '044', name: 'Access Bank' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '50515', name: 'Moniepoint MFB' },
];

describe('Flutterwave bank list', () => {
  it('lists what GET /banks/NG answers, sorted, and asks again only after the cache time', async () => {
    const clock = { ms: Date.now() };
    const { flutterwave, fallbacks } = provider(clock);
    const before = bankReads();
    expect(await flutterwave.listBanks()).toEqual(LIVE);
    clock.ms += 30_000;
    expect(await flutterwave.listBanks()).toEqual(LIVE);
    expect(bankReads() - before).toBe(1);
    clock.ms += 31_000;
    await flutterwave.listBanks();
    expect(bankReads() - before).toBe(2);
    expect(fallbacks).toEqual([]);
  });

  it.each(['5xx', 'timeout', 'garbage'] as const)(
    'on %s serves the last list it had, then the live one once the provider answers',
    async (failure) => {
      const clock = { ms: Date.now() };
      const { flutterwave, fallbacks } = provider(clock);
      expect(await flutterwave.listBanks()).toEqual(LIVE);
      clock.ms += 61_000;
      fake.failures.banks = failure;
      expect(await flutterwave.listBanks()).toEqual(LIVE);
      expect(fallbacks).toEqual(['stale']);
      fake.failures.banks = 'none';
      const before = bankReads();
      expect(await flutterwave.listBanks()).toEqual(LIVE);
      expect(bankReads() - before).toBe(1);
    },
  );

  it.each(['5xx', 'timeout', 'garbage'] as const)(
    'on %s with nothing cached yet serves the bundled list of real Nigerian banks',
    async (failure) => {
      const { flutterwave, fallbacks } = provider({ ms: Date.now() });
      fake.failures.banks = failure;
      const banks = await flutterwave.listBanks();
      expect(banks).toEqual([...NIGERIAN_BANKS]);
      expect(banks).toContainEqual({ code: '50515', name: 'Moniepoint MFB' });
      expect(fallbacks).toEqual(['bundled']);
      // Not cached: the next read asks the provider again.
      fake.failures.banks = 'none';
      expect(await flutterwave.listBanks()).toEqual(LIVE);
    },
  );
});
