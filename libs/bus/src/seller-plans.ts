import { applyNewestSnapshot, type Pool, type Queryable, type ReadModelTable } from '@lockdrop/db';
import type { Bus } from './connection.js';
import type { Subscription } from './subscription.js';

/**
 * Billing's `plan.changed`, kept per seller in a service's own `seller_plans` table (user_id,
 * plan, changed_at, deleted) so the service can enforce what a plan gives — delivery's quota and
 * size limit, catalog's brand — without asking payments at request time.
 */
const SELLER_PLANS: ReadModelTable = {
  table: 'seller_plans',
  key: 'user_id',
  version: 'changed_at',
};

/** Keeps the newest plan.changed per seller (an older one arriving late changes nothing). */
export async function applyPlanChange(
  db: Queryable,
  userId: string,
  plan: string,
  occurredAt: string,
): Promise<void> {
  await applyNewestSnapshot(db, SELLER_PLANS, userId, occurredAt, { plan });
}

/** The plan billing last announced for this seller; null when it never announced one. */
export async function findSellerPlan(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ plan: string }>(
    'SELECT plan FROM seller_plans WHERE user_id = $1 AND NOT deleted',
    [userId],
  );
  return rows[0]?.plan ?? null;
}

/** Subscribes the service's `seller_plans` to billing's plan changes as durable `consumer`. */
export function subscribeToPlanChanges({
  bus,
  pool,
  consumer,
}: {
  bus: Bus;
  pool: Pool;
  consumer: string;
}): Promise<Subscription> {
  return bus.subscribe({
    consumer,
    filter: 'plan.changed',
    pool,
    handler: async (event, tx) => {
      if (event.type !== 'plan.changed') return;
      const { userId, plan } = event.data;
      await applyPlanChange(tx, userId, plan, event.occurredAt);
    },
  });
}
