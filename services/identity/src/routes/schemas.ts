import type { Profile as ProfileDto, SessionResponse } from '@lockdrop/contracts';
import { z } from 'zod';
import type { Account } from '../domain/account.js';
import type { IssuedSession } from '../domain/sessions.js';
import type { Profile } from '../db/profiles.repo.js';
import type { Session } from '../db/sessions.repo.js';

export const statusSchema = z.object({ status: z.string() });

export function presentProfile(profile: Profile): ProfileDto {
  return {
    ...profile,
    createdAt: profile.createdAt.toISOString(),
    updatedAt: profile.updatedAt.toISOString(),
  };
}

export function presentAccount(
  { user, profile }: Account,
  session: { id: string; expiresAt: Date; persistent: boolean },
): SessionResponse {
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

export function presentIssued(issued: IssuedSession): SessionResponse {
  return {
    ...presentAccount(issued.account, {
      id: issued.sessionId,
      expiresAt: issued.accessExpiresAt,
      persistent: issued.persistent,
    }),
    ...(issued.acting ? { acting: issued.acting } : {}),
  };
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
