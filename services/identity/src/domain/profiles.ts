import { AVATAR_PATH_PATTERN, type DomainEvent } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { setPlan, updateProfile, type ProfileChanges, type Profile } from '../db/profiles.repo.js';
import { findUserById } from '../db/users.repo.js';
import { requireAccount } from './account.js';
import { enqueueProfileUpdated } from './profile-events.js';

/** Profile reads and edits; the plan is not editable here — it follows `plan.changed` from billing. */
export function createProfileService({ pool }: { pool: Pool }) {
  return {
    async get(userId: string): Promise<Profile> {
      return (await requireAccount(pool, userId)).profile;
    },

    async update(userId: string, changes: ProfileChanges, correlationId: string): Promise<Profile> {
      // An uploaded avatar is the owner's own: another account's picture path is refused.
      const uploadedBy = changes.avatarUrl
        ? AVATAR_PATH_PATTERN.exec(changes.avatarUrl)?.[1]
        : null;
      if (uploadedBy && uploadedBy !== userId)
        throw new AppError('invalid_avatar', 400, 'Please upload your own picture.');
      return withTransaction(pool, async (tx) => {
        const { user } = await requireAccount(tx, userId);
        const profile = (await updateProfile(tx, userId, changes))!;
        await enqueueProfileUpdated(tx, { user, profile }, correlationId);
        return profile;
      });
    },

    /** Consumer of `plan.changed`: runs inside the consumer's transaction (exactly-once effect). */
    async applyPlanChange(event: DomainEvent<'plan.changed'>, tx: PoolClient): Promise<void> {
      const user = await findUserById(tx, event.data.userId);
      // A deleted account, or a change older than the one already applied: nothing to do.
      if (!user) return;
      const profile = await setPlan(tx, user.id, event.data.plan, new Date(event.occurredAt));
      if (profile) await enqueueProfileUpdated(tx, { user, profile }, event.correlationId);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
