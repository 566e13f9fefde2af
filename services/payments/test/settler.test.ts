import { randomUUID } from 'node:crypto';
import { createPool, type Pool, type PoolClient } from '@lockdrop/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createSettlePacer,
  createSettler,
  storeChargeEvents,
  type SettlePacer,
  type SettlerDeps,
} from '../src/modules/settlement/index.js';
import { createFlutterwaveProvider } from '../src/providers/flutterwave.js';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';
import { browser, fetchJson, startHarness, waitFor, type Harness } from './support.js';

// Issue 31: answer on store, settle in batches. The app's own settler runs as in production;
// the tests that need settlers of their own (killed mid-batch, racing) store their events due
// two hours ahead and give those settlers a clock two hours ahead, so only they see them.

let fake: FakeFlutterwave;
let harness: Harness;
let pool: Pool;

beforeAll(async () => {
  fake = await startFakeFlutterwave();
  harness = await startHarness({
    ...fake.env,
    PROVIDER_TIMEOUT_MS: '5000',
    SETTLER_POLL_MS: '100',
    SETTLER_BATCH_SIZE: '25',
    SETTLER_VERIFY_CONCURRENCY: '8',
  });
  pool = createPool({ connectionString: harness.databaseUrl, schema: 'payments', max: 12 });
});
afterAll(async () => {
  await pool?.end();
  await harness?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failures.verify = 'none';
  fake.verifyFailuresFor.clear();
  fake.verifyDelayMs = 0;
  fake.slowMs = 1_500;
});

async function checkouts(count: number) {
  const product = await harness.publishProduct();
  const buyer = browser(harness.url);
  const txRefs: string[] = [];
  for (let index = 0; index < count; index++) {
    const response = await buyer.postJson('/api/checkout', {
      productId: product.productId,
      buyerEmail: `buyer-${randomUUID()}@example.com`,
    });
    expect(response.status).toBe(200);
    txRefs.push(((await response.json()) as { txRef: string }).txRef);
  }
  return txRefs;
}

function deliver(body: unknown) {
  const raw = JSON.stringify(body);
  return fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
    method: 'POST',
    headers: fake.signedHeaders(raw),
    body: raw,
  });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await harness.pool.query<{ n: number }>(sql, params);
  return rows[0]!.n;
}

const purchasesOf = (txRefs: string[]) =>
  count('SELECT count(*)::int AS n FROM purchases WHERE tx_ref = ANY($1)', [txRefs]);

/** Per tx_ref: purchases, purchase.paid events in the outbox, and unbalanced payment journals. */
async function creditsOf(txRefs: string[]) {
  const { rows } = await harness.pool.query<{
    txRef: string;
    purchases: number;
    paidEvents: number;
    unbalanced: number;
  }>(
    `SELECT t.tx_ref AS "txRef",
       (SELECT count(*)::int FROM purchases p WHERE p.tx_ref = t.tx_ref) AS purchases,
       (SELECT count(*)::int FROM outbox o WHERE o.type = 'purchase.paid'
          AND o.payload->'data'->>'txRef' = t.tx_ref) AS "paidEvents",
       (SELECT count(*)::int FROM (
          SELECT e.journal_id FROM ledger_entries e JOIN purchases p ON p.id = e.purchase_id
          WHERE p.tx_ref = t.tx_ref GROUP BY e.journal_id HAVING sum(e.amount_minor) <> 0) j) AS unbalanced
     FROM unnest($1::text[]) AS t (tx_ref) ORDER BY 1`,
    [txRefs],
  );
  return rows;
}

const AHEAD_MS = 2 * 60 * 60 * 1000;

/**
 * Stores `copies` charge notifications per payment as a webhook would, due two hours ahead on the
 * ahead settlers' own clock (Postgres' now() has microseconds: a claim in the same millisecond as
 * the insert would not yet see it due).
 */
async function storeAhead(txRefs: string[], copies: number) {
  for (const txRef of txRefs) {
    const transaction = fake.pay(txRef);
    for (let copy = 0; copy < copies; copy++)
      await harness.pool.query(
        `INSERT INTO provider_events (provider, event_key, event_type, transaction_id, tx_ref, payload, next_attempt_at)
         VALUES ('flutterwave', $1, 'charge.completed', $2, $3, '{}', $4)`,
        [
          `charge.completed:${transaction.id}:successful:${copy}`,
          String(transaction.id),
          txRef,
          new Date(Date.now() + AHEAD_MS),
        ],
      );
  }
}

/** A settler like every replica runs, two hours ahead, over `db`. */
function aheadSettler(
  db: Pool,
  options: {
    batchSize?: number;
    verifyConcurrency?: number;
    leaseSeconds?: number;
    laterMs?: number;
    pacer?: SettlePacer;
  } = {},
) {
  const deps: SettlerDeps = {
    pool: db,
    provider: createFlutterwaveProvider({
      baseUrl: fake.baseUrl,
      secretKey: fake.secretKey,
      webhookHash: fake.webhookHash,
      timeoutMs: 600,
    }),
    processorFeeBps: 350,
    publicUrl: 'http://127.0.0.1:8080',
    refundWindowHours: 24,
    now: () => new Date(Date.now() + AHEAD_MS + (options.laterMs ?? 0)),
    onMailQueued: () => {},
    subscriptions: { graceDays: 3, leewayHours: 24 },
    retryBaseMs: 100,
    logger: { warn: () => {}, error: () => {} },
  };
  return createSettler(deps, {
    batchSize: options.batchSize ?? 10,
    verifyConcurrency: options.verifyConcurrency ?? 4,
    leaseSeconds: options.leaseSeconds ?? 1,
    pacer: options.pacer,
  });
}

/**
 * `pool` with every statement — through `query` or a connection's — passed to `before` first:
 * it may wait (a slow statement) or throw (the connection died: the transaction in hand rolls
 * back).
 */
function interceptedPool(before: (text: string, values: unknown[]) => Promise<void> | void): Pool {
  const intercept =
    (query: (text: unknown, values?: unknown[]) => unknown) =>
    async (text: unknown, values?: unknown[]) => {
      if (typeof text === 'string') await before(text, values ?? []);
      return query(text, values);
    };
  const wrap = (client: PoolClient): PoolClient =>
    new Proxy(client, {
      get(target, property) {
        if (property === 'query') return intercept(target.query.bind(target) as never);
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
  return new Proxy(pool, {
    get(target, property) {
      if (property === 'connect') return async () => wrap(await target.connect());
      if (property === 'query') return intercept(target.query.bind(target) as never);
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** A pool whose statements fail as `dies` says: the transaction in hand is rolled back. */
function dyingPool(
  dies: (text: string, values: unknown[]) => boolean,
  failure: () => Error = () => new Error('settler killed mid-batch'),
): Pool {
  return interceptedPool((text, values) => {
    if (dies(text, values)) throw failure();
  });
}

/** The settler's claim statement (claimDueEvents). */
const isClaim = (text: string) => text.includes('attempts = attempts + 1');

const claimedOf = (txRefs: string[]) =>
  count(`SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1) AND attempts > 0`, [
    txRefs,
  ]);

describe('answer on store (issue 31)', () => {
  it('answers 200 before verifying: a slow verify does not delay the answer, and the payment settles after it', async () => {
    const [txRef] = await checkouts(1);
    // Slow, but within PROVIDER_TIMEOUT_MS (5 s): a verify in the request would hold the answer 3 s.
    fake.verifyDelayMs = 3_000;
    const started = Date.now();
    const response = await deliver(fake.envelopeWebhook(fake.pay(txRef!)));
    const answeredInMs = Date.now() - started;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: 'accepted' });
    expect(answeredInMs).toBeLessThan(1_000);
    // Answered while the provider was still being asked: nothing is settled yet.
    expect(await purchasesOf([txRef!])).toBe(0);
    await waitFor(() => fake.verifyInFlight.now > 0, 5_000, 'the settler asking the provider');
    await waitFor(async () => (await purchasesOf([txRef!])) === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });

  it('answers duplicates 200 from the unique key while the first is still being verified', async () => {
    const [txRef] = await checkouts(1);
    fake.verifyDelayMs = 300;
    const transaction = fake.pay(txRef!);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => deliver(fake.envelopeWebhook(transaction))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const outcomes = await Promise.all(responses.map(async (r) => (await r.json()).outcome));
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    await waitFor(async () => (await purchasesOf([txRef!])) === 1);
    expect(await creditsOf([txRef!])).toEqual([
      { txRef, purchases: 1, paidEvents: 1, unbalanced: 0 },
    ]);
  });

  it('a burst of different payments and their repeats, stored together: 200 only once stored, one accepted each', async () => {
    const txRefs = await checkouts(30);
    const bodies = txRefs.map((txRef) => fake.envelopeWebhook(fake.pay(txRef)));
    const keyOf = (body: unknown) => String((body as { data: { id: number } }).data.id);
    // Every payment twice, a third of them three times, all in flight at once.
    const deliveries = [...bodies, ...bodies, ...bodies.filter((_, index) => index % 3 === 0)];
    const answers = await Promise.all(
      deliveries.map(async (body) => {
        const response = await deliver(body);
        // The answer is the promise the provider stops on: the event must be there already.
        const stored = await count(
          `SELECT count(*)::int AS n FROM provider_events
           WHERE provider = 'flutterwave' AND transaction_id = $1`,
          [keyOf(body)],
        );
        return { key: keyOf(body), status: response.status, stored, ...(await response.json()) };
      }),
    );
    expect(answers.every((answer) => answer.status === 200 && answer.stored === 1)).toBe(true);
    const accepted = answers.filter((answer) => answer.outcome === 'accepted').map((a) => a.key);
    expect(accepted.sort()).toEqual(bodies.map(keyOf).sort());
    expect(answers.filter((answer) => answer.outcome === 'duplicate')).toHaveLength(
      deliveries.length - bodies.length,
    );
    await waitFor(async () => (await purchasesOf(txRefs)) === txRefs.length);
    expect((await creditsOf(txRefs)).every((c) => c.purchases === 1 && c.paidEvents === 1)).toBe(
      true,
    );
  });

  it("answers a charge while every connection of payments' pool waits on something else", async () => {
    const product = await harness.publishProduct();
    const [txRef] = await checkouts(1);
    const blocker = await pool.connect();
    let checkoutsWaiting: Array<Promise<Response>> = [];
    try {
      // A long lock on checkouts (a migration, a stuck report): every checkout opened meanwhile
      // holds one of payments' ten pooled connections while it waits (nine seen waiting here).
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE checkouts IN ACCESS EXCLUSIVE MODE');
      const buyer = browser(harness.url);
      checkoutsWaiting = Array.from({ length: 16 }, () =>
        buyer.postJson('/api/checkout', {
          productId: product.productId,
          buyerEmail: `buyer-${randomUUID()}@example.com`,
        }),
      );
      await waitFor(
        async () =>
          (await count(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            [],
          )) >= 9,
        10_000,
        'every pooled connection waiting on the lock',
      );
      const answer = await Promise.race([
        deliver(fake.envelopeWebhook(fake.pay(txRef!))),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
      ]);
      expect(answer, 'answered while the pool was taken').not.toBeNull();
      expect(answer!.status).toBe(200);
      expect(await answer!.json()).toEqual({ received: true, outcome: 'accepted' });
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect((await Promise.all(checkoutsWaiting)).map((response) => response.status)).toEqual(
      Array(16).fill(200),
    );
    await waitFor(async () => (await purchasesOf([txRef!])) === 1);
  });

  it('a group commit holding one payment twice, and one stored before, creates each once', async () => {
    const charge = (key: string) => ({
      provider: 'flutterwave',
      notice: {
        eventKey: `group-${key}`,
        eventType: 'charge.completed',
        charge: { transactionId: `group-${key}`, txRef: `ld_group_${key}` },
      },
      payload: { key },
    });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    // Due two hours from now: the app's own settler leaves them alone.
    const due = new Date(Date.now() + AHEAD_MS);
    expect(await storeChargeEvents(pool, [charge(c)], due)).toEqual([true]);
    expect(
      await storeChargeEvents(pool, [charge(a), charge(b), charge(a), charge(c), charge(b)], due),
    ).toEqual([true, true, false, false, false]);
    expect(
      await count(`SELECT count(*)::int AS n FROM provider_events WHERE event_key = ANY($1)`, [
        [a, b, c].map((key) => `group-${key}`),
      ]),
    ).toBe(3);
  });

  it('still refuses a forged signature and a malformed body with the one error shape', async () => {
    const raw = JSON.stringify(
      fake.envelopeWebhook(fake.pay(`ld_${randomUUID()}`, { amount: 5000, currency: 'NGN' })),
    );
    const forged = await fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
      method: 'POST',
      headers: fake.signedHeaders(raw, 'another-secret'),
      body: raw,
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({
      error: { code: 'invalid_signature', message: expect.any(String) },
    });
    const garbage = '{"event": ';
    const malformed = await fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
      method: 'POST',
      headers: fake.signedHeaders(garbage),
      body: garbage,
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: { code: 'invalid_body', message: expect.any(String) },
    });
  });
});

describe('the settler (issue 31)', () => {
  it('in one batch, a verify failing and one timing out do not hold up the rest', async () => {
    const txRefs = await checkouts(10);
    const transactions = txRefs.map((txRef) => fake.pay(txRef));
    fake.verifyDelayMs = 150;
    // Slower than PROVIDER_TIMEOUT_MS (5 s): our side gives up waiting.
    fake.slowMs = 6_000;
    fake.verifyFailuresFor.set(transactions[3]!.id, '5xx');
    fake.verifyFailuresFor.set(transactions[7]!.id, 'timeout');
    await Promise.all(transactions.map((t) => deliver(fake.envelopeWebhook(t))));
    const healthy = txRefs.filter((_, index) => index !== 3 && index !== 7);
    await waitFor(async () => (await purchasesOf(healthy)) === 8);
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1) AND status = 'retry'`,
          [[txRefs[3], txRefs[7]]],
        )) === 2,
    );
    expect(await purchasesOf([txRefs[3]!, txRefs[7]!])).toBe(0);
    fake.verifyFailuresFor.clear();
    await waitFor(async () => (await purchasesOf(txRefs)) === 10);
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
  });

  it('a signed notification of a transaction the provider does not know is recorded as such, credits nothing, and is not tried again', async () => {
    const [paid, unpaid] = await checkouts(2);
    const transaction = fake.pay(paid!);
    // Signed with our hash, naming a transaction id the provider's verify has no record of.
    const invented = { ...transaction, id: transaction.id + 1_000_000, tx_ref: unpaid! };
    await Promise.all([
      deliver(fake.envelopeWebhook(transaction)),
      deliver(fake.envelopeWebhook(invented)),
    ]);
    await waitFor(
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = $1 AND status = 'processed'`,
          [unpaid],
        )) === 1,
    );
    const { rows } = await harness.pool.query<{ outcome: string; due: Date | null }>(
      `SELECT outcome, next_attempt_at AS due FROM provider_events WHERE tx_ref = $1`,
      [unpaid],
    );
    expect(rows).toEqual([{ outcome: 'unknown_transaction', due: null }]);
    expect(await purchasesOf([unpaid!])).toBe(0);
    await waitFor(async () => (await purchasesOf([paid!])) === 1);
  });

  it('a webhook storm holds the settler off; what it stored settles once the storm goes quiet', async () => {
    const txRefs = await checkouts(6);
    await storeAhead(txRefs, 1);
    let drained: Promise<void> | undefined;
    const pacer = createSettlePacer(() => void (drained = settler.drain()), {
      stormBatch: 16,
      quietMs: 150,
      maxHoldMs: 10_000,
    });
    const settler = aheadSettler(pool, { pacer, leaseSeconds: 60 });
    // A group commit of 20 deliveries: notifications are queueing, the answers come first.
    pacer.stored(20);
    await settler.drain();
    expect(await claimedOf(txRefs)).toBe(0);
    expect(await purchasesOf(txRefs)).toBe(0);
    // The storm passes: the pacer wakes the settler, which settles every one of them once.
    await waitFor(() => drained !== undefined, 5_000, 'the pacer waking the settler');
    await drained;
    expect(pacer.holding()).toBe(false);
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    // Caught up (its last claim found nothing due), the next storm is held again.
    pacer.stored(16);
    expect(pacer.holding()).toBe(true);
    pacer.stop();
  });

  it('under a steady load, claims at most once per cadence: what came meanwhile settles together in the next claim', async () => {
    const txRefs = await checkouts(6);
    let claims = 0;
    const counted = interceptedPool((text) => {
      if (isClaim(text)) claims++;
    });
    let drained: Promise<void> | undefined;
    const pacer = createSettlePacer(() => void (drained = settler.drain()), {
      stormBatch: 16,
      maxHoldMs: 0,
      cadenceMs: 1_000,
    });
    const settler = aheadSettler(counted, { pacer, leaseSeconds: 60 });
    // The first payment after a quiet spell is claimed and settled at once.
    await storeAhead(txRefs.slice(0, 1), 1);
    await settler.drain();
    expect(await purchasesOf(txRefs.slice(0, 1))).toBe(1);
    expect(claims).toBe(1);
    // Five more, each followed by a wake as the webhook route wakes its settler: held for the
    // cadence.
    for (const txRef of txRefs.slice(1)) {
      await storeAhead([txRef], 1);
      await settler.drain();
    }
    expect(claims).toBe(1);
    expect(await purchasesOf(txRefs.slice(1))).toBe(0);
    // The cadence ends: one claim takes all five.
    await waitFor(() => drained !== undefined, 5_000, 'the pacer waking the settler');
    await drained;
    expect(claims).toBe(2);
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    pacer.stop();
  });

  it('claims a backlog of full batches without a pause; the cadence starts only after the claim that took the rest', async () => {
    const txRefs = await checkouts(12);
    await storeAhead(txRefs, 1);
    const pacer = createSettlePacer(() => {}, { stormBatch: 16, maxHoldMs: 0, cadenceMs: 60_000 });
    const settler = aheadSettler(pool, { batchSize: 5, pacer, leaseSeconds: 60 });
    await settler.drain();
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    expect(pacer.holding()).toBe(true);
    pacer.stop();
  });

  it('verifies a claimed batch concurrently, never more at once than its setting', async () => {
    const txRefs = await checkouts(12);
    await storeAhead(txRefs, 1);
    fake.verifyDelayMs = 200;
    // A verify the previous test left hanging in the fake (its 6 s timeout) must not count here.
    await waitFor(() => fake.verifyInFlight.now === 0, 10_000, "the fake's hanging verify ending");
    fake.verifyInFlight.max = 0;
    await aheadSettler(pool, { batchSize: 12, verifyConcurrency: 4, leaseSeconds: 60 }).drain();
    expect(fake.verifyInFlight.max).toBe(4);
    expect(await purchasesOf(txRefs)).toBe(12);
  });

  /**
   * A settler (batches of 5) over `txRefs`' stored events whose first settlement transaction
   * stays open, as a slow commit would, while `whileHeld` runs; then it drains. Returns the
   * claims and commits it sent, in order.
   */
  async function drainWithFirstSettlementHeld(txRefs: string[], whileHeld: () => Promise<void>) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let ledgerWrites = 0;
    const statements: Array<'claim' | 'commit'> = [];
    const held = interceptedPool(async (text) => {
      if (isClaim(text)) statements.push('claim');
      if (text === 'COMMIT') statements.push('commit');
      if (text.startsWith('INSERT INTO ledger_entries') && ledgerWrites++ === 0) await released;
    });
    const drained = aheadSettler(held, {
      batchSize: 5,
      verifyConcurrency: 5,
      leaseSeconds: 60,
    }).drain();
    try {
      await whileHeld();
    } finally {
      release();
      await drained;
    }
    return statements;
  }

  it('claims the next batch while the one before is still settling', async () => {
    const txRefs = await checkouts(10);
    await storeAhead(txRefs, 1);
    await drainWithFirstSettlementHeld(txRefs, async () => {
      // Both batches claimed while the first is uncommitted: the second did not wait for it.
      await waitFor(async () => (await claimedOf(txRefs)) === 10, 5_000, 'the second claim');
      expect(await purchasesOf(txRefs)).toBe(0);
    });
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
  });

  it('claims no faster than it settles: one verified batch at most waits behind the transaction in hand', async () => {
    const txRefs = await checkouts(20);
    await storeAhead(txRefs, 1);
    const statements = await drainWithFirstSettlementHeld(txRefs, async () => {
      await waitFor(async () => (await claimedOf(txRefs)) >= 10, 5_000, 'the second claim');
      // Time for a third claim, were claims not held back by the open transaction.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    // The third claim (of four) went out only after the first transaction committed.
    const claims = statements.flatMap((statement, index) => (statement === 'claim' ? [index] : []));
    expect(claims.length).toBeGreaterThan(3);
    expect(claims[2]).toBeGreaterThan(statements.indexOf('commit'));
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
  });

  it('a verify that timed out here while the provider still works on it: the retry settles the payment once, without waiting for it', async () => {
    const txRefs = await checkouts(3);
    await storeAhead(txRefs, 1);
    const slowId = fake.charges(txRefs[1])[0]!.id;
    await waitFor(() => fake.verifyInFlight.now === 0, 10_000, "the fake's hanging verify ending");
    // The provider answers after 4 s; our client gives up after 600 ms (aheadSettler).
    fake.slowMs = 4_000;
    fake.verifyFailuresFor.set(slowId, 'timeout');
    const settler = aheadSettler(pool, { batchSize: 10, verifyConcurrency: 4, leaseSeconds: 60 });
    const started = performance.now();
    await settler.drain();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await purchasesOf([txRefs[0]!, txRefs[2]!])).toBe(2);
    expect(await purchasesOf([txRefs[1]!])).toBe(0);
    expect(fake.verifyInFlight.now).toBe(1);
    // The provider now answers at once; its first verify call is still open.
    fake.verifyFailuresFor.clear();
    await waitFor(
      async () => {
        await settler.drain();
        return (await purchasesOf([txRefs[1]!])) === 1;
      },
      3_000,
      'the retried payment',
    );
    expect(fake.verifyInFlight.now).toBe(1);
    await waitFor(() => fake.verifyInFlight.now === 0, 10_000, 'the first verify answering late');
    await settler.drain();
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    expect(
      await count('SELECT max(attempts)::int AS n FROM provider_events WHERE tx_ref = $1', [
        txRefs[1],
      ]),
    ).toBe(2);
  });

  it('a settler killed mid-batch credits nothing; its claims come back and settle exactly once', async () => {
    const txRefs = await checkouts(12);
    await storeAhead(txRefs, 2);
    // The ledger write of every batch it attempts fails: its transactions roll back.
    const killed = aheadSettler(
      dyingPool((text) => text.startsWith('INSERT INTO ledger_entries')),
      { leaseSeconds: 60 },
    );
    await killed.drain();
    expect(await purchasesOf(txRefs)).toBe(0);
    const claimed = await count(
      `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1) AND attempts = 1
         AND status = 'received'`,
      [txRefs],
    );
    expect(claimed).toBe(24);
    // Each was claimed once (its lease holds them): the failing settler did not spin on them.
    // A minute later its leases have run out, and a healthy settler takes the same events.
    await aheadSettler(pool, { laterMs: 61_000 }).drain();
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1) AND status = 'processed'`,
        [txRefs],
      ),
    ).toBe(24);
  });

  it('claims a database outage interrupted are given back when it answers again, not after their lease, and keep their attempt', async () => {
    const txRefs = await checkouts(12);
    await storeAhead(txRefs, 2);
    let databaseDown = true;
    // The connection drops as the batch writes its ledger lines (a primary lost mid-batch).
    const settler = aheadSettler(
      dyingPool(
        (text) => databaseDown && text.startsWith('INSERT INTO ledger_entries'),
        () =>
          Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' }),
      ),
      { leaseSeconds: 600 },
    );
    await settler.drain();
    expect(await purchasesOf(txRefs)).toBe(0);
    // The database is back; the same process (same clock: its 10-minute leases still hold)
    // settles every payment on its next pass.
    databaseDown = false;
    await settler.drain();
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    const { rows } = await harness.pool.query<{ status: string; attempts: number; n: number }>(
      `SELECT status, attempts, count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1)
       GROUP BY 1, 2`,
      [txRefs],
    );
    // The outage did not spend an attempt: each event shows only the claim that settled it.
    expect(rows).toEqual([{ status: 'processed', attempts: 1, n: 24 }]);
  });

  it('a poison payment fails only itself: the rest of its batch settles', async () => {
    const txRefs = await checkouts(6);
    await storeAhead(txRefs, 1);
    const poison = txRefs[2]!;
    const settler = aheadSettler(
      dyingPool(
        (text, values) => text.startsWith('INSERT INTO purchases') && values.includes(poison),
      ),
    );
    await settler.drain();
    const healthy = txRefs.filter((txRef) => txRef !== poison);
    expect(await purchasesOf(healthy)).toBe(5);
    expect(await purchasesOf([poison])).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = $1 AND status = 'received' AND attempts = 1`,
        [poison],
      ),
    ).toBe(1);
  });

  it('four settlers racing over the same events (three deliveries per payment) credit each payment once', async () => {
    const txRefs = await checkouts(30);
    await storeAhead(txRefs, 3);
    // Short leases: settlers re-claim each other's events while they are still being settled.
    const settlers = Array.from({ length: 4 }, () =>
      aheadSettler(pool, { batchSize: 7, leaseSeconds: 0 }),
    );
    await Promise.all(settlers.map((settler) => settler.drain()));
    await Promise.all(settlers.map((settler) => settler.drain()));
    for (const row of await creditsOf(txRefs))
      expect(row).toEqual({ txRef: row.txRef, purchases: 1, paidEvents: 1, unbalanced: 0 });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM provider_events WHERE tx_ref = ANY($1) AND status = 'processed'`,
        [txRefs],
      ),
    ).toBe(90);
  });
});

describe('the ledger balance check (issue 31)', () => {
  const purchaseId = async () => {
    const [txRef] = await checkouts(1);
    const transaction = fake.pay(txRef!);
    await deliver(fake.envelopeWebhook(transaction));
    await waitFor(async () => (await purchasesOf([txRef!])) === 1);
    const { rows } = await harness.pool.query<{ id: string }>(
      'SELECT id FROM purchases WHERE tx_ref = $1',
      [txRef],
    );
    return rows[0]!.id;
  };
  it('refuses at commit a transaction holding an unbalanced journal, whatever balanced ones it holds', async () => {
    const purchase = await purchaseId();
    const client = await harness.pool.connect();
    try {
      await client.query('BEGIN');
      const balanced = randomUUID();
      const unbalanced = randomUUID();
      await client.query(
        `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
         VALUES ($1, $3, 'refund', 'buyer_payments', NULL, -100, 'NGN'),
                ($1, $3, 'refund', 'platform_fees', NULL, 100, 'NGN'),
                ($2, $3, 'release', 'processor_fees', NULL, 7, 'NGN')`,
        [balanced, unbalanced, purchase],
      );
      // Mid-transaction, an unbalanced journal is allowed (its other lines may follow).
      await expect(client.query('COMMIT')).rejects.toThrow(/is not balanced in one currency/);
    } finally {
      client.release();
    }
    expect(
      await count(
        'SELECT count(*)::int AS n FROM ledger_entries WHERE purchase_id = $1 AND kind <> $2',
        [purchase, 'payment'],
      ),
    ).toBe(0);
  });

  it('accepts a journal whose lines arrive in separate statements of one transaction', async () => {
    const purchase = await purchaseId();
    const journal = randomUUID();
    const client = await harness.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
         VALUES ($1, $2, 'refund', 'buyer_payments', NULL, -100, 'NGN')`,
        [journal, purchase],
      );
      await client.query(
        `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
         VALUES ($1, $2, 'refund', 'platform_fees', NULL, 100, 'NGN')`,
        [journal, purchase],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(
      await count('SELECT count(*)::int AS n FROM ledger_entries WHERE journal_id = $1', [journal]),
    ).toBe(2);
    expect(await count('SELECT count(*)::int AS n FROM ledger_journals_to_check', [])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM ledger_checks_due', [])).toBe(0);
  });

  it('still refuses a journal written after the check already ran early in the transaction', async () => {
    const purchase = await purchaseId();
    const client = await harness.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
         VALUES ($1, $2, 'refund', 'buyer_payments', NULL, -100, 'NGN'),
                ($1, $2, 'refund', 'platform_fees', NULL, 100, 'NGN')`,
        [randomUUID(), purchase],
      );
      // The deferred check runs here, for the journal so far (one check per transaction)…
      await client.query('SET CONSTRAINTS ALL IMMEDIATE');
      await client.query('SET CONSTRAINTS ALL DEFERRED');
      // …and a journal written after it must arm the check again.
      await client.query(
        `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
         VALUES ($1, $2, 'release', 'processor_fees', NULL, 7, 'NGN')`,
        [randomUUID(), purchase],
      );
      await expect(client.query('COMMIT')).rejects.toThrow(/is not balanced in one currency/);
    } finally {
      client.release();
    }
  });
});
