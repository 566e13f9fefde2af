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
} as const;
