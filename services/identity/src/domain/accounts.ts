import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import { z } from 'zod';
import { consumeEmailToken, insertEmailToken } from '../db/email-tokens.repo.js';
import { deleteFactorFromBeforeVerification } from '../db/mfa.repo.js';
import { insertProfile } from '../db/profiles.repo.js';
import { revokeUserSessions } from '../db/sessions.repo.js';
import * as users from '../db/users.repo.js';
import { normalizeEmail, requireAccount, type Client } from './account.js';
import type { Emails } from './emails.js';
import { authErrors } from './errors.js';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  hashPassword,
  verifyPassword,
} from './passwords.js';
import { enqueueProfileUpdated } from './profile-events.js';
import { newToken, hashToken } from './secrets.js';
import type { IssuedSession, SessionService } from './sessions.js';
import type { Throttle } from './throttle.js';

const VERIFY_EMAIL_SECONDS = 24 * 60 * 60;
const RESET_PASSWORD_SECONDS = 60 * 60;

export interface SignUpInput {
  fullName?: string;
  email?: string;
  password?: string;
  acceptTerms?: boolean;
  remember?: boolean;
}

interface AccountDeps {
  pool: Pool;
  sessions: SessionService;
  throttle: Throttle;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
}

const emailShape = z.email();

/** Spec §5, in the spec's order: required fields, then password length, then terms. */
export function validateEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!emailShape.safeParse(email).success || email.length > 254) throw authErrors.invalidEmail();
  return email;
}

export function validateNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw authErrors.weakPassword();
  if (password.length > MAX_PASSWORD_LENGTH) throw authErrors.passwordTooLong();
}

export function createAccountService({ pool, sessions, throttle, emails, mailRelay }: AccountDeps) {
  /** Runs `work` in a transaction, then wakes the mail relay for any e-mail it queued. */
  const withMail = async <T>(work: (tx: PoolClient) => Promise<T>): Promise<T> => {
    const result = await withTransaction(pool, work);
    mailRelay.wake();
    return result;
  };

  const queueVerification = async (
    tx: PoolClient,
    userId: string,
    email: string,
    fullName: string,
  ) => {
    const token = newToken();
    await insertEmailToken(tx, {
      tokenHash: token.hash,
      userId,
      purpose: 'verify_email',
      email,
      lifetimeSeconds: VERIFY_EMAIL_SECONDS,
    });
    await enqueueMail(tx, emails.verification(email, fullName, token.token));
  };

  return {
    async signUp(
      input: SignUpInput,
      client: Client,
      correlationId: string,
    ): Promise<IssuedSession> {
      const fullName = input.fullName?.trim() ?? '';
      if (!fullName || !input.email?.trim() || !input.password) throw authErrors.missingFields();
      const email = validateEmail(input.email);
      validateNewPassword(input.password);
      if (input.acceptTerms !== true) throw authErrors.termsRequired();
      if (fullName.length > 100) throw authErrors.nameTooLong();
      const passwordHash = await hashPassword(input.password);

      return withMail(async (tx) => {
        const user = await users
          .insertUser(tx, { id: randomUUID(), email, passwordHash, emailVerified: false })
          .catch((error: unknown) => {
            throw error instanceof users.EmailTakenError ? authErrors.emailTaken() : error;
          });
        const profile = await insertProfile(tx, { id: user.id, fullName });
        await queueVerification(tx, user.id, email, fullName);
        await enqueueEvent(
          tx,
          createEvent('user.signed_up', { userId: user.id, email, fullName }, { correlationId }),
        );
        await enqueueProfileUpdated(tx, { user, profile }, correlationId);
        return sessions.open(tx, user.id, { persistent: input.remember === true, client });
      });
    },

    /** Confirms the address behind a verification link. */
    async verifyEmail(token: string, correlationId: string): Promise<void> {
      await withTransaction(pool, async (tx) => {
        const consumed = await consumeEmailToken(tx, hashToken(token), 'verify_email');
        if (consumed.status === 'expired') throw authErrors.tokenExpired();
        if (consumed.status !== 'consumed') throw authErrors.invalidToken();
        const account = await requireAccount(tx, consumed.userId);
        // The address changed since the link was sent: it proves nothing about the current one.
        if (account.user.email !== consumed.email) throw authErrors.invalidToken();
        if (!(await users.markEmailVerified(tx, account.user.id))) return;
        const verified = { ...account, user: { ...account.user, emailVerified: true } };
        await enqueueEvent(
          tx,
          createEvent(
            'user.email_verified',
            { userId: account.user.id, email: account.user.email },
            { correlationId },
          ),
        );
        await enqueueProfileUpdated(tx, verified, correlationId);
      });
    },

    /** Sends a new verification link; silent whether or not the address has an account. */
    async resendVerification(rawEmail: string): Promise<void> {
      const email = validateEmail(rawEmail);
      await throttle.hit(`verify:account:${email}`, throttle.limits.verificationPerAccount);
      await withMail(async (tx) => {
        const user = await users.findUserByEmail(tx, email);
        if (!user || user.emailVerified) return;
        const { profile } = await requireAccount(tx, user.id);
        await queueVerification(tx, user.id, email, profile.fullName);
      });
    },

    /** Mails a reset link if the address has an account; the answer is the same either way. */
    async requestPasswordReset(rawEmail: string, client: Client): Promise<void> {
      if (!rawEmail.trim()) throw authErrors.missingFields();
      const email = validateEmail(rawEmail);
      await throttle.hit(`reset:ip:${client.ip}`, throttle.limits.passwordResetPerIp);
      await throttle.hit(`reset:account:${email}`, throttle.limits.passwordResetPerAccount);
      await withMail(async (tx) => {
        const user = await users.findUserByEmail(tx, email);
        if (!user) return;
        const token = newToken();
        await insertEmailToken(tx, {
          tokenHash: token.hash,
          userId: user.id,
          purpose: 'reset_password',
          email,
          lifetimeSeconds: RESET_PASSWORD_SECONDS,
        });
        await enqueueMail(tx, emails.passwordReset(email, token.token));
      });
    },

    /** Sets a new password from a reset link and signs every session out. */
    async resetPassword(
      token: string,
      password: string,
      client: Client,
      correlationId: string,
    ): Promise<void> {
      if (!token || !password) throw authErrors.missingFields();
      await throttle.hit(`reset:ip:${client.ip}`, throttle.limits.passwordResetPerIp);
      validateNewPassword(password);
      const passwordHash = await hashPassword(password);
      await withTransaction(pool, async (tx) => {
        const consumed = await consumeEmailToken(tx, hashToken(token), 'reset_password');
        if (consumed.status === 'expired') throw authErrors.tokenExpired();
        if (consumed.status !== 'consumed') throw authErrors.invalidToken();
        const account = await requireAccount(tx, consumed.userId);
        if (account.user.email !== consumed.email) throw authErrors.invalidToken();
        await users.setPasswordHash(tx, account.user.id, passwordHash);
        await revokeUserSessions(tx, account.user.id, 'password_reset');
        await deleteFactorFromBeforeVerification(tx, account.user.id);
        // Following the link proved the mailbox is theirs.
        if (await users.markEmailVerified(tx, account.user.id)) {
          await enqueueEvent(
            tx,
            createEvent(
              'user.email_verified',
              { userId: account.user.id, email: account.user.email },
              { correlationId },
            ),
          );
          await enqueueProfileUpdated(
            tx,
            { ...account, user: { ...account.user, emailVerified: true } },
            correlationId,
          );
        }
      });
    },

    /** Changes the password of a signed-in user and ends their other sessions. */
    async changePassword(
      userId: string,
      sessionId: string,
      input: { currentPassword?: string; newPassword?: string },
    ): Promise<void> {
      if (!input.newPassword) throw authErrors.missingFields();
      validateNewPassword(input.newPassword);
      const account = await requireAccount(pool, userId);
      // Accounts created with Google have no password yet: they may set one.
      if (
        account.user.passwordHash &&
        !(await verifyPassword(account.user.passwordHash, input.currentPassword ?? ''))
      ) {
        throw authErrors.invalidPassword();
      }
      const passwordHash = await hashPassword(input.newPassword);
      await withTransaction(pool, async (tx) => {
        await users.setPasswordHash(tx, userId, passwordHash);
        await revokeUserSessions(tx, userId, 'password_changed', sessionId);
      });
    },

    /**
     * Deletes the account and everything identity holds about it. The password confirms it;
     * an account without one (Google only) confirms by typing its e-mail address.
     */
    async deleteAccount(
      userId: string,
      confirmation: { password?: string; email?: string },
      correlationId: string,
    ): Promise<void> {
      const account = await requireAccount(pool, userId);
      const confirmed = account.user.passwordHash
        ? await verifyPassword(account.user.passwordHash, confirmation.password ?? '')
        : normalizeEmail(confirmation.email ?? '') === account.user.email;
      if (!confirmed) throw authErrors.invalidPassword();
      await withTransaction(pool, async (tx) => {
        await users.deleteUser(tx, userId);
        await enqueueEvent(tx, createEvent('user.deleted', { userId }, { correlationId }));
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
