import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { ownerOf } from '../db/teams.repo.js';
import { findUserById } from '../db/users.repo.js';
import type { Account } from './account.js';

/**
 * `profile.updated` carries the whole public profile, so consumers keep a read model without
 * asking; `contactEmail` is the store's current owner's address (issue 28: after a transfer,
 * sale e-mails go to the new owner, not to the account the store was created under).
 */
export async function enqueueProfileUpdated(
  tx: Queryable,
  { user, profile }: Account,
  correlationId: string,
): Promise<void> {
  const ownerId = await ownerOf(tx, user.id);
  const contactEmail =
    ownerId === user.id ? user.email : ((await findUserById(tx, ownerId))?.email ?? user.email);
  await enqueueEvent(
    tx,
    createEvent(
      'profile.updated',
      {
        userId: user.id,
        email: user.email,
        emailVerified: user.emailVerified,
        fullName: profile.fullName,
        avatarUrl: profile.avatarUrl,
        plan: profile.plan,
        contactEmail,
      },
      { correlationId },
    ),
  );
}
