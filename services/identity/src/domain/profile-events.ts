import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import type { Account } from './account.js';

/** `profile.updated` carries the whole public profile, so consumers keep a read model without asking. */
export function enqueueProfileUpdated(
  tx: Queryable,
  { user, profile }: Account,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(
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
      },
      { correlationId },
    ),
  );
}
