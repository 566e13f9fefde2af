import { randomInt, timingSafeEqual } from 'node:crypto';
import type { ReauthenticationMethod } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import { findFactor } from '../db/mfa.repo.js';
import * as codes from '../db/reauthentication-codes.repo.js';
import { requireAccount } from './account.js';
import type { Emails } from './emails.js';
import { authErrors } from './errors.js';
import type { MfaService } from './mfa.js';
import { verifyPassword } from './passwords.js';
import { hashToken } from './secrets.js';
import type { IssuedSession, SessionService } from './sessions.js';
import type { Throttle } from './throttle.js';

export const EMAILED_CODE_MINUTES = 10;
const EMAILED_CODE_ATTEMPTS = 5;

const codeHash = (userId: string, code: string) => hashToken(`${userId}:${code}`);

const wrongCode = () =>
  new AppError('reauth_code_invalid', 400, 'That code is wrong or has expired. Ask for a new one.');

interface ReauthenticationDeps {
  pool: Pool;
  sessions: SessionService;
  mfa: MfaService;
  throttle: Throttle;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
}

/**
 * A fresh proof of identity on a signed-in session, for actions a stolen session must not take
 * (where payouts go). The proof asked for is the strongest the account has: a code from the
 * authenticator app when two-factor is on, else the password, else (accounts that only sign in
 * with Google) a code e-mailed to the account's address — a code rather than a link, so the
 * person stays on the page whose save is waiting, and a mail scanner following links cannot
 * use it.
 */
export function createReauthenticationService({
  pool,
  sessions,
  mfa,
  throttle,
  emails,
  mailRelay,
}: ReauthenticationDeps) {
  const methodOf = async (userId: string): Promise<ReauthenticationMethod> => {
    if ((await findFactor(pool, userId))?.verified) return 'mfa';
    const { user } = await requireAccount(pool, userId);
    return user.passwordHash ? 'password' : 'email_code';
  };

  const checkPassword = async (userId: string, password: string) => {
    const key = `reauth:account:${userId}`;
    await throttle.check(key, throttle.limits.signInFailuresPerAccount);
    const { user } = await requireAccount(pool, userId);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await throttle.hit(key, throttle.limits.signInFailuresPerAccount).catch(() => undefined);
      throw authErrors.invalidPassword();
    }
    await throttle.reset(key);
  };

  const checkEmailedCode = async (userId: string, code: string) => {
    // A wrong attempt must be counted although the request fails: commit, then throw.
    const accepted = await withTransaction(pool, async (tx) => {
      const stored = await codes.findCodeForUpdate(tx, userId);
      if (!stored || stored.expired || stored.attempts >= EMAILED_CODE_ATTEMPTS) return false;
      const presented = Buffer.from(codeHash(userId, code));
      const expected = Buffer.from(stored.codeHash);
      if (presented.length === expected.length && timingSafeEqual(presented, expected)) {
        await codes.deleteCode(tx, userId);
        return true;
      }
      await codes.countFailedAttempt(tx, userId);
      return false;
    });
    if (!accepted) throw wrongCode();
  };

  return {
    methodOf,

    /** E-mails a one-time code to an account that has neither a password nor a second factor. */
    async sendEmailedCode(userId: string): Promise<void> {
      if ((await methodOf(userId)) !== 'email_code')
        throw new AppError(
          'reauth_method_mismatch',
          409,
          'Confirm with your password or authenticator code instead',
        );
      await throttle.hit(`reauth-code:account:${userId}`, throttle.limits.verificationPerAccount);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await withTransaction(pool, async (tx) => {
        const { user } = await requireAccount(tx, userId);
        await codes.replaceCode(tx, {
          userId,
          codeHash: codeHash(userId, code),
          lifetimeSeconds: EMAILED_CODE_MINUTES * 60,
        });
        await enqueueMail(tx, emails.reauthenticationCode(user.email, code, EMAILED_CODE_MINUTES));
      });
      mailRelay.wake();
    },

    async reauthenticate(
      userId: string,
      sessionId: string,
      proof: { password?: string | undefined; code?: string | undefined },
    ): Promise<IssuedSession> {
      const method = await methodOf(userId);
      if (method === 'mfa') {
        if (!proof.code) throw authErrors.missingFields();
        await mfa.confirmCode(userId, proof.code);
      } else if (method === 'password') {
        if (!proof.password) throw authErrors.missingFields();
        await checkPassword(userId, proof.password);
      } else {
        if (!proof.code) throw authErrors.missingFields();
        await checkEmailedCode(userId, proof.code.trim());
      }
      return sessions.reauthenticated(userId, sessionId);
    },
  };
}

export type ReauthenticationService = ReturnType<typeof createReauthenticationService>;
