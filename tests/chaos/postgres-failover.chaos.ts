import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWebhookHeaders, waitFor } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import { startPostgresPair, type PostgresPair } from './support/postgres';
import { openCheckouts, openShop, providerCharges, type Shop } from './support/shop';

/**
 * Issue 32: Postgres as a primary and a synchronous streaming standby (two Debian clusters on
 * loopback ports), every service on the multi-host URL
 * `postgres://…@primary,standby/db?target_session_attrs=read-write`. The primary is killed -9
 * in the middle of a webhook storm and the standby promoted (what an operator, or CloudNativePG,
 * does): every webhook answered 200 before the kill is still a purchase, nothing is credited
 * twice, and the services find the new primary without a restart.
 */
let pair: PostgresPair;
let cluster: Cluster;
let shop: Shop;

beforeAll(async () => {
  pair = await startPostgresPair();
  cluster = await startCluster({}, { databaseUrl: (database) => pair.url(database) });
  shop = await openShop(cluster, 'postgres-failover');
});
afterAll(async () => {
  await cluster?.stop().catch((error) => console.error('cluster stop failed', error));
  await pair?.stop();
});

const txRefOf = (raw: Buffer) =>
  (JSON.parse(raw.toString('utf8')) as { data: { tx_ref: string } }).data.tx_ref;

describe('the Postgres primary lost mid-storm', () => {
  it('the standby promoted: every webhook answered 200 is one purchase, none credited twice', async () => {
    const pidsBefore = cluster.pids();
    const { txRefs } = await openCheckouts(cluster, shop.productId, 40);
    const bodies = await providerCharges(cluster, txRefs);
    // Every charge once, a quarter of them twice (the provider repeats itself), shuffled.
    const deliveries = [...bodies, ...bodies.filter((_, index) => index % 4 === 0)].sort(
      () => Math.random() - 0.5,
    );
    const answered = new Map<string, number>(); // tx_ref → when its first 200 came
    let killedAt = 0;
    let promotedAt = 0;
    let firstAnswerAfterPromotion = 0;
    let refused = 0;
    let failover: Promise<void> | undefined;
    let cursor = 0;
    const secret = cluster.sandboxWebhookSecret;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (cursor < deliveries.length) {
          const raw = deliveries[cursor++]!;
          // As the provider does: sent again after a pause until answered 200.
          await waitFor(
            async () => {
              const response = await fetch(`${cluster.baseUrl}/api/webhooks/sandbox`, {
                method: 'POST',
                headers: sandboxWebhookHeaders(secret, raw),
                body: raw,
                signal: AbortSignal.timeout(15_000),
              }).catch(() => null);
              await response?.arrayBuffer().catch(() => undefined);
              if (response?.status !== 200) {
                refused += 1;
                await new Promise((resolve) => setTimeout(resolve, 300));
                return false;
              }
              const now = Date.now();
              if (!answered.has(txRefOf(raw))) answered.set(txRefOf(raw), now);
              if (promotedAt && !firstAnswerAfterPromotion) firstAnswerAfterPromotion = now;
              if (answered.size === 10 && !failover) {
                failover = (async () => {
                  killedAt = Date.now();
                  await pair.killPrimary();
                  // The operator's (or the operator's operator's) reaction time.
                  await new Promise((resolve) => setTimeout(resolve, 3_000));
                  await pair.promoteStandby();
                  promotedAt = Date.now();
                })();
              }
              return true;
            },
            120_000,
            'a webhook delivery to be accepted',
          );
        }
      }),
    );
    await failover;
    const answeredBeforeKill = [...answered].filter(([, at]) => at <= killedAt).map(([ref]) => ref);
    expect(answeredBeforeKill.length).toBeGreaterThanOrEqual(10);
    expect(refused).toBeGreaterThan(0);

    // Read from the promoted standby (the suite's own pool follows the failover as the services do).
    const { rows: servedBy } = await cluster.db.query<{ port: number; recovery: boolean }>(
      'SELECT inet_server_port() AS port, pg_is_in_recovery() AS recovery',
    );
    expect(servedBy[0]).toEqual({ port: pair.standbyPort, recovery: false });
    await waitFor(
      async () =>
        (
          await cluster.db.query<{ n: number }>(
            'SELECT count(DISTINCT tx_ref)::int AS n FROM payments.purchases WHERE tx_ref = ANY($1)',
            [answeredBeforeKill],
          )
        ).rows[0]!.n === answeredBeforeKill.length,
      60_000,
      'every webhook answered before the kill to be a purchase on the new primary',
    ).catch(async (error: Error) => {
      // What became of the stored events that did not settle, and what the services said.
      const { rows } = await cluster.db.query(
        `SELECT e.tx_ref, e.status, e.attempts, e.received_at, e.next_attempt_at, e.last_error
         FROM payments.provider_events e
         WHERE e.tx_ref = ANY($1)
           AND NOT EXISTS (SELECT 1 FROM payments.purchases p WHERE p.tx_ref = e.tx_ref)
         ORDER BY e.tx_ref, e.id`,
        [answeredBeforeKill],
      );
      throw new Error(
        `${error.message}; killed at ${new Date(killedAt).toISOString()}, promoted at ` +
          `${new Date(promotedAt).toISOString()}; unsettled stored events:\n` +
          `${rows.map((row) => JSON.stringify(row)).join('\n')}\nlast log lines:\n` +
          cluster.logs.slice(-40).join(''),
      );
    });
    console.log(
      `Postgres failover: primary killed after ${answeredBeforeKill.length} webhooks were answered 200, ` +
        `standby promoted ${promotedAt - killedAt} ms later, first 200 from the new primary ` +
        `${firstAnswerAfterPromotion - promotedAt} ms after promotion; ${refused} deliveries refused ` +
        `meanwhile and sent again; all ${answeredBeforeKill.length} answered before the kill are purchases`,
    );
    const invariants = await expectInvariants(cluster, {
      txRefs,
      label: 'killing the Postgres primary and promoting its standby',
    });
    expect(invariants.purchases).toBe(txRefs.length);
    // Found the new primary by themselves: no replica died or was restarted for it.
    expect(cluster.pids()).toEqual(pidsBefore);
  });
});
