import { z } from 'zod';
import { planIdSchema } from '../shared.js';

export const identityEvents = {
  'user.signed_up': {
    version: 1,
    schema: z.object({ userId: z.uuid(), email: z.email(), fullName: z.string() }),
  },
  'user.email_verified': {
    version: 1,
    schema: z.object({ userId: z.uuid(), email: z.email() }),
  },
  'profile.updated': {
    version: 1,
    schema: z.object({
      userId: z.uuid(),
      email: z.email(),
      emailVerified: z.boolean(),
      fullName: z.string(),
      avatarUrl: z.string().nullable(),
      plan: planIdSchema,
      /**
       * Where e-mails about the store the account is go (sale notices): its current owner's
       * address — `email` unless the store was transferred to a member (issue 28). Absent in
       * events from before it existed: use `email`.
       */
      contactEmail: z.email().optional(),
    }),
  },
  /** The account and everything identity held about it are gone; other services drop or anonymise theirs. */
  'user.deleted': {
    version: 1,
    schema: z.object({ userId: z.uuid() }),
  },
  /** A seller revoked an API key: gateways drop their cached answer for it at once. */
  'api_key.revoked': {
    version: 1,
    schema: z.object({ keyId: z.uuid(), userId: z.uuid() }),
  },
  /**
   * A member left or was removed from a store (issue 28): gateways drop their cached answer for
   * that membership at once, so the member's acting tokens stop on the next request.
   */
  'store.member_removed': {
    version: 1,
    schema: z.object({ storeId: z.uuid(), userId: z.uuid() }),
  },
  /** A member's role changed: tokens carrying the old role stop, as for a removal. */
  'store.member_role_changed': {
    version: 1,
    schema: z.object({ storeId: z.uuid(), userId: z.uuid(), role: z.string() }),
  },
  /**
   * The store has another owner (issue 28): gateways refuse the former owner's tokens minted
   * before it (they spoke for the store as its owner) so the next request gets one as an admin.
   */
  'store.ownership_transferred': {
    version: 1,
    schema: z.object({ storeId: z.uuid(), fromUserId: z.uuid(), toUserId: z.uuid() }),
  },
} as const;
