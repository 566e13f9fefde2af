import { z } from 'zod';
import type { Account } from '../domain/account.js';
import { payoutMethodSchema, profileRoleSchema } from '../domain/profile-fields.js';
import type { IssuedSession } from '../domain/sessions.js';
import type { Profile } from '../db/profiles.repo.js';
import type { Session } from '../db/sessions.repo.js';
import { planIdSchema } from '@lockdrop/contracts';

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

/** What `GET /api/auth/session`, sign-in, sign-up and refresh answer. */
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

export const mfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  challengeToken: z.string(),
  expiresAt: z.iso.datetime(),
});

export const sessionListSchema = z.object({
  sessions: z.array(
    z.object({
      id: z.uuid(),
      current: z.boolean(),
      persistent: z.boolean(),
      userAgent: z.string().nullable(),
      ip: z.string().nullable(),
      createdAt: z.iso.datetime(),
      lastUsedAt: z.iso.datetime(),
      expiresAt: z.iso.datetime(),
    }),
  ),
});

export const statusSchema = z.object({ status: z.string() });

export function presentProfile(profile: Profile): z.infer<typeof profileSchema> {
  return {
    ...profile,
    createdAt: profile.createdAt.toISOString(),
    updatedAt: profile.updatedAt.toISOString(),
  };
}

export function presentAccount(
  { user, profile }: Account,
  session: { id: string; expiresAt: Date; persistent: boolean },
) {
  return {
    user: { id: user.id, email: user.email, emailVerified: user.emailVerified, plan: profile.plan },
    profile: presentProfile(profile),
    session: {
      id: session.id,
      expiresAt: session.expiresAt.toISOString(),
      persistent: session.persistent,
    },
  };
}

export function presentIssued(issued: IssuedSession) {
  return presentAccount(issued.account, {
    id: issued.sessionId,
    expiresAt: issued.accessExpiresAt,
    persistent: issued.persistent,
  });
}

export function presentSessions(sessions: Session[], currentSessionId: string) {
  return {
    sessions: sessions.map((session) => ({
      id: session.id,
      current: session.id === currentSessionId,
      persistent: session.persistent,
      userAgent: session.userAgent,
      ip: session.ip,
      createdAt: session.createdAt.toISOString(),
      lastUsedAt: session.lastUsedAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
    })),
  };
}
