import { randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness?.close());

describe('the read models payments keeps', () => {
  it('never receives product.viewed, the busiest event on the bus', async () => {
    const product = await harness.publishProduct();
    const view = createEvent(
      'product.viewed',
      { productId: product.productId, visitorId: 'v1', day: '2031-06-01', referrer: null },
      { correlationId: randomUUID() },
    );
    await harness.publish(view);
    // Something payments does consume, published after the view: once it is applied, the view
    // would have been seen too if any payments consumer listened for it.
    const later = await harness.publishProduct({ title: 'Published after the view' });
    const { rows } = await harness.pool.query(
      'SELECT consumer FROM processed_events WHERE event_id = $1',
      [view.id],
    );
    expect(rows).toEqual([]);
    const applied = await harness.pool.query('SELECT title FROM products WHERE id = $1', [
      later.productId,
    ]);
    expect(applied.rows[0].title).toBe('Published after the view');
  });
});
