import { randomUUID } from 'node:crypto';
import { PROCESSED_EVENT_RETENTION_DAYS } from '@lockdrop/bus';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorkerHarness, waitFor, type WorkerHarness } from './support.js';

let harness: WorkerHarness;
beforeAll(async () => {
  harness = await startWorkerHarness();
});
afterAll(() => harness?.close());

const DAY = 24 * 3_600_000;

it('prunes bookkeeping no redelivery can need, in every service, once a day', async () => {
  const old = new Date(Date.now() - (PROCESSED_EVENT_RETENTION_DAYS + 1) * DAY);
  const recent = new Date(Date.now() - 2 * DAY);
  const [oldEvent, recentEvent, unsent] = [randomUUID(), randomUUID(), randomUUID()];
  await harness.pool.query(
    `INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('x', $1, $2), ('x', $3, $4)`,
    [oldEvent, old, recentEvent, recent],
  );
  // Published long ago, and never published: only the first may go.
  const published = randomUUID();
  await harness.pool.query(
    `INSERT INTO outbox (id, type, payload, created_at, published_at) VALUES
       ($1, 'test.old', '{}', $3, $3), ($2, 'test.unsent', '{}', $3, NULL)`,
    [published, unsent, old],
  );
  // The unsent row would be relayed (and fail to parse); keep the relay away from it.
  await harness.pool.query(`UPDATE outbox SET attempts = 1000 WHERE id = $1`, [unsent]);

  const scheduled = new Queue('retention', {
    connection: new Redis(harness.config.REDIS_URL, { maxRetriesPerRequest: null }),
    prefix: harness.namespace,
  });
  expect(await scheduled.getJobScheduler('retention')).toMatchObject({ pattern: '30 3 * * *' });
  await scheduled.add('prune', {}, { jobId: 'nightly-test' });
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      'SELECT 1 FROM processed_events WHERE event_id = $1',
      [oldEvent],
    );
    return rows.length === 0;
  });
  const kept = await harness.pool.query(
    'SELECT event_id FROM processed_events WHERE event_id = $1',
    [recentEvent],
  );
  expect(kept.rows).toHaveLength(1);
  const outbox = await harness.pool.query('SELECT id FROM outbox WHERE id = ANY($1)', [
    [published, unsent],
  ]);
  expect(outbox.rows.map((row) => row.id)).toEqual([unsent]);
  await scheduled.close();
});

it('keeps the webhook delivery log for 90 days, and a pending delivery whatever its age', async () => {
  const endpointId = randomUUID();
  await harness.pool.query(
    `INSERT INTO webhook_endpoints (id, seller_id, seller_email, url, events, secret_sealed)
     VALUES ($1, $2, 'seller@example.com', 'https://hooks.example.com', '{sale.created}', 'sealed')`,
    [endpointId, randomUUID()],
  );
  const at = (days: number) => new Date(Date.now() - days * DAY);
  const rows = [
    ['msg_old', 'succeeded', at(91)],
    ['msg_old_pending', 'pending', at(91)],
    ['msg_recent', 'failed', at(89)],
  ] as const;
  for (const [id, status, createdAt] of rows)
    await harness.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, seller_id, event_type, resource_id, payload, status, created_at)
       SELECT $1, id, seller_id, 'sale.created', $1, '{}', $2, $3 FROM webhook_endpoints WHERE id = $4`,
      [id, status, createdAt, endpointId],
    );
  const scheduled = new Queue('retention', {
    connection: new Redis(harness.config.REDIS_URL, { maxRetriesPerRequest: null }),
    prefix: harness.namespace,
  });
  await scheduled.add('prune', {}, { jobId: 'nightly-webhooks' });
  await waitFor(async () => {
    const { rows: left } = await harness.pool.query(
      `SELECT 1 FROM webhook_deliveries WHERE id = 'msg_old'`,
    );
    return left.length === 0;
  });
  const kept = await harness.pool.query('SELECT id FROM webhook_deliveries ORDER BY id');
  expect(kept.rows.map((row) => row.id)).toEqual(['msg_old_pending', 'msg_recent']);
  await scheduled.close();
});
