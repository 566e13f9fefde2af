import { z } from 'zod';
import { payoutMethodSchema } from './payouts.js';
import { planIdSchema } from '../shared.js';

/** Onboarding roles (spec §3). */
export const profileRoleSchema = z.enum(['freelancer', 'agency', 'creator', 'business']);
export type ProfileRole = z.infer<typeof profileRoleSchema>;

/** GET/PATCH /api/profile. */
export const profileSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatarUrl: z.string().nullable(),
  plan: planIdSchema,
  payoutMethod: payoutMethodSchema.nullable(),
  role: profileRoleSchema.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

/** What `GET /api/auth/session`, sign-in, sign-up, the MFA challenge and refresh answer. */
export const sessionResponseSchema = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    emailVerified: z.boolean(),
    plan: planIdSchema,
  }),
  profile: profileSchema,
  /** expiresAt: when the access token expires; refresh (POST /api/auth/refresh) before then. */
  session: z.object({ id: z.uuid(), expiresAt: z.iso.datetime(), persistent: z.boolean() }),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** Sign-in's answer when a second factor is due. */
export const mfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  challengeToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** One of the account's signed-in sessions (GET /api/auth/sessions). */
export const signedInSessionSchema = z.object({
  id: z.uuid(),
  current: z.boolean(),
  persistent: z.boolean(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const sessionListSchema = z.object({ sessions: z.array(signedInSessionSchema) });
