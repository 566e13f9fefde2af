import type { Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { findProfile, type Profile } from '../db/profiles.repo.js';
import { findUserById, type User } from '../db/users.repo.js';

/** Who is signed in, as the session endpoint and sign-in answers describe them. */
export interface Account {
  user: User;
  profile: Profile;
}

/** Where a request came from, recorded on its session. */
export interface Client {
  ip: string;
  userAgent: string | null;
}

export async function loadAccount(db: Queryable, userId: string): Promise<Account | null> {
  // One after another: `db` may be a transaction's one connection, which runs one query at a time.
  const user = await findUserById(db, userId);
  const profile = await findProfile(db, userId);
  return user && profile ? { user, profile } : null;
}

export async function requireAccount(db: Queryable, userId: string): Promise<Account> {
  const account = await loadAccount(db, userId);
  if (!account) throw new AppError('unauthorized', 401, 'Auth session missing!');
  return account;
}

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
