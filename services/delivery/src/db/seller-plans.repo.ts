import { applyNewestSnapshot, type Queryable, type ReadModelTable } from '@lockdrop/db';

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

/** The plan billing last announced for this seller; null when it never changed one. */
export async function findSellerPlan(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ plan: string }>(
    'SELECT plan FROM seller_plans WHERE user_id = $1 AND NOT deleted',
    [userId],
  );
  return rows[0]?.plan ?? null;
}
