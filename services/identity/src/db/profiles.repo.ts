import type { Queryable } from '@lockdrop/db';
import type { PlanId } from '@lockdrop/contracts';
import { planIdSchema } from '@lockdrop/contracts';
import type { PayoutMethod, ProfileRole } from '@lockdrop/contracts';

export interface Profile {
  id: string;
  fullName: string;
  avatarUrl: string | null;
  plan: PlanId;
  payoutMethod: PayoutMethod | null;
  role: ProfileRole | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ProfileRow {
  id: string;
  full_name: string;
  avatar_url: string | null;
  plan: string;
  payout_method: PayoutMethod | null;
  role: ProfileRole | null;
  created_at: Date;
  updated_at: Date;
}

const toProfile = (row: ProfileRow): Profile => {
  const plan = planIdSchema.safeParse(row.plan);
  return {
    id: row.id,
    fullName: row.full_name,
    avatarUrl: row.avatar_url,
    // Spec §3: any plan value we do not know is treated as free.
    plan: plan.success ? plan.data : 'free',
    payoutMethod: row.payout_method,
    role: row.role,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
};

export async function insertProfile(
  db: Queryable,
  profile: { id: string; fullName: string; avatarUrl?: string | null },
): Promise<Profile> {
  const { rows } = await db.query<ProfileRow>(
    `INSERT INTO profiles (id, full_name, avatar_url, plan) VALUES ($1, $2, $3, 'free') RETURNING *`,
    [profile.id, profile.fullName, profile.avatarUrl ?? null],
  );
  return toProfile(rows[0]!);
}

export async function findProfile(db: Queryable, userId: string): Promise<Profile | null> {
  const { rows } = await db.query<ProfileRow>('SELECT * FROM profiles WHERE id = $1', [userId]);
  return rows[0] ? toProfile(rows[0]) : null;
}

export interface ProfileChanges {
  fullName?: string;
  avatarUrl?: string | null;
  payoutMethod?: PayoutMethod | null;
  role?: ProfileRole | null;
}

export async function updateProfile(
  db: Queryable,
  userId: string,
  changes: ProfileChanges,
): Promise<Profile | null> {
  const { rows } = await db.query<ProfileRow>(
    `UPDATE profiles SET
       full_name = CASE WHEN $2 THEN $3 ELSE full_name END,
       avatar_url = CASE WHEN $4 THEN $5 ELSE avatar_url END,
       payout_method = CASE WHEN $6 THEN $7 ELSE payout_method END,
       role = CASE WHEN $8 THEN $9 ELSE role END,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      userId,
      changes.fullName !== undefined,
      changes.fullName ?? null,
      changes.avatarUrl !== undefined,
      changes.avatarUrl ?? null,
      changes.payoutMethod !== undefined,
      changes.payoutMethod ?? null,
      changes.role !== undefined,
      changes.role ?? null,
    ],
  );
  return rows[0] ? toProfile(rows[0]) : null;
}

/** Applies a plan change unless a newer one was applied already; null when nothing changed. */
export async function setPlan(
  db: Queryable,
  userId: string,
  plan: PlanId,
  changedAt: Date,
): Promise<Profile | null> {
  const { rows } = await db.query<ProfileRow>(
    `UPDATE profiles SET plan = $2, plan_changed_at = $3, updated_at = now()
     WHERE id = $1 AND (plan_changed_at IS NULL OR plan_changed_at < $3) RETURNING *`,
    [userId, plan, changedAt],
  );
  return rows[0] ? toProfile(rows[0]) : null;
}
