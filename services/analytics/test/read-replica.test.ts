import { createPool, type Pool } from '@lockdrop/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Overview } from '../src/domain/analytics.js';
import { makePaid, makeProduct, startAnalytics, type AnalyticsHarness } from './support.js';

// DATABASE_READ_URL (issue 32): the dashboards' figures are read from a replica, the consumers
// keep writing to the primary. The "replica" is a second database that the test brings up to
// date by hand, so what it holds and what the primary holds can differ on purpose.
let analytics: AnalyticsHarness;
let replica: Pool;

beforeAll(async () => {
  analytics = await startAnalytics({ readReplica: true });
  replica = createPool({ connectionString: analytics.replicaUrl!, schema: 'analytics', max: 2 });
});
afterAll(async () => {
  await replica?.end();
  await analytics?.close();
});

/** What streaming replication would do: every analytics row of the primary, now on the replica. */
async function replicate(): Promise<void> {
  const { rows: tables } = await analytics.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'analytics' AND table_type = 'BASE TABLE'`,
  );
  for (const { name } of tables) {
    const { rows } = await analytics.db.query(`SELECT * FROM analytics.${name}`);
    await replica.query(`TRUNCATE analytics.${name}`);
    await replica.query(
      `INSERT INTO analytics.${name} SELECT * FROM json_populate_recordset(null::analytics.${name}, $1)`,
      [JSON.stringify(rows)],
    );
  }
}

it('serves the dashboard from the read replica while the events are written to the primary', async () => {
  const seller = await analytics.seller();
  const product = makeProduct({ ownerId: seller.id, title: 'Replica pack' });
  await analytics.publish('product.created', product);
  await analytics.publish(
    'purchase.paid',
    makePaid({ productId: product.productId, ownerId: seller.id }),
  );

  const overview = async () => {
    const response = await analytics.get<Overview>('/api/analytics/overview?days=30', seller);
    expect(response.status).toBe(200);
    return response.body;
  };
  // The primary has the sale; the replica has not caught up, and the dashboard reads the replica.
  expect((await overview()).sales.value).toBe(0);

  await replicate();
  expect((await overview()).sales.value).toBe(1);
});
