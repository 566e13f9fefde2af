import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import {
  findFactor,
  findChallengeForUpdate,
  insertChallenge,
  recordChallengeAttempt,
  recordFactorUse,
} from '../db/mfa.repo.js';
import * as counters from '../db/throttle.repo.js';
import { findUserByEmail, findUserById } from '../db/users.repo.js';
import type { Client } from './account.js';
import { validateEmail } from './accounts.js';
import type { Emails } from './emails.js';
import { authErrors } from './errors.js';
import { verifyPassword } from './passwords.js';
import { isTotpCode, spendRecoveryCode } from './recovery-codes.js';
import { hashToken, newToken } from './secrets.js';
import type { IssuedSession, SessionService } from './sessions.js';
import type { Throttle } from './throttle.js';
import { matchTotp } from './totp.js';

const CHALLENGE_SECONDS = 5 * 60;
const CHALLENGE_ATTEMPTS = 5;

/** The password was right but the account has two-factor on: the code comes next. */
export interface MfaChallenge {
  challengeToken: string;
  expiresAt: Date;
}

export type SignInResult =
  { kind: 'session'; session: IssuedSession } | { kind: 'mfa'; challenge: MfaChallenge };

export interface SignInInput {
  email?: string;
  password?: string;
  remember?: boolean;
}

interface SignInDeps {
  pool: Pool;
  sessions: SessionService;
  throttle: Throttle;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
}

export function createSignInService({ pool, sessions, throttle, emails, mailRelay }: SignInDeps) {
  const secondFactorLimit = throttle.limits.secondFactorFailuresPerAccount;
  /** Continues a sign-in for `userId` whose first factor is settled: a session, or a challenge when MFA is on. */
  const finish = async (
    userId: string,
    persistent: boolean,
    client: Client,
  ): Promise<SignInResult> => {
    const factor = await findFactor(pool, userId);
    if (factor?.verified) {
      const token = newToken();
      const expiresAt = await insertChallenge(pool, {
        tokenHash: token.hash,
        userId,
        persistent,
        lifetimeSeconds: CHALLENGE_SECONDS,
      });
      return { kind: 'mfa', challenge: { challengeToken: token.token, expiresAt } };
    }
    return {
      kind: 'session',
      session: await withTransaction(pool, (tx) =>
        sessions.open(tx, userId, { persistent, client }),
      ),
    };
  };

  return {
    finish,

    async signIn(input: SignInInput, client: Client): Promise<SignInResult> {
      if (!input.email?.trim() || !input.password) throw authErrors.missingFields();
      const email = validateEmail(input.email);
      const accountKey = `sign-in:account:${email}`;
      await throttle.hit(`sign-in:ip:${client.ip}`, throttle.limits.signInPerIp);
      await throttle.check(accountKey, throttle.limits.signInFailuresPerAccount);
      const user = await findUserByEmail(pool, email);
      if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
        await throttle
          .hit(accountKey, throttle.limits.signInFailuresPerAccount)
          .catch(() => undefined);
        throw authErrors.invalidCredentials();
      }
      await throttle.reset(accountKey);
      return finish(user.id, input.remember === true, client);
    },

    /**
     * Second step of a sign-in with MFA: the challenge token from step one plus a current code
     * or one of the account's recovery codes (issue 29, item 11), under the same limits. A
     * recovery code answers how many remain (and the owner is e-mailed).
     */
    async completeChallenge(
      challengeToken: string,
      code: string,
      client: Client,
    ): Promise<{ session: IssuedSession; recoveryCodesRemaining?: number }> {
      if (!challengeToken || !code) throw authErrors.missingFields();
      const tokenHash = hashToken(challengeToken);
      const outcome = await withTransaction(pool, async (tx: PoolClient) => {
        const challenge = await findChallengeForUpdate(tx, tokenHash);
        if (!challenge) return { error: authErrors.invalidToken() };
        if (challenge.expired) return { error: authErrors.tokenExpired() };
        if (!challenge.usable || challenge.attempts >= CHALLENGE_ATTEMPTS)
          return { error: authErrors.invalidToken() };
        const accountKey = `mfa-sign-in:account:${challenge.userId}`;
        const spent = await counters.peek(tx, accountKey);
        if (spent.hits >= secondFactorLimit.max)
          return { error: authErrors.rateLimited(spent.retryAfterSeconds) };
        const factor = await findFactor(tx, challenge.userId, { forUpdate: true });
        let step: number | null = null;
        let recoveryCodesRemaining: number | null = null;
        if (factor?.verified && isTotpCode(code)) step = matchTotp(factor.secret, code);
        else if (factor?.verified)
          recoveryCodesRemaining = await spendRecoveryCode(tx, challenge.userId, code, emails);
        const accepted =
          recoveryCodesRemaining !== null ||
          (step !== null && (factor!.lastUsedStep === null || step > factor!.lastUsedStep));
        // The failed attempt must be counted even though the request fails: commit, then throw.
        await recordChallengeAttempt(tx, tokenHash, accepted);
        if (!accepted) {
          const failures = await counters.hit(tx, accountKey, secondFactorLimit.windowSeconds);
          if (failures.hits < secondFactorLimit.max) return { error: authErrors.invalidMfaCode() };
          // Once per window: the count only passes the limit once before it resets.
          const owner = await findUserById(tx, challenge.userId);
          if (failures.hits === secondFactorLimit.max && owner)
            await enqueueMail(tx, emails.secondFactorLocked(owner.email));
          return {
            error: authErrors.rateLimited(failures.retryAfterSeconds),
            mailQueued: true,
          };
        }
        await counters.reset(tx, accountKey);
        if (step !== null) await recordFactorUse(tx, challenge.userId, step);
        return {
          session: await sessions.open(tx, challenge.userId, {
            persistent: challenge.persistent,
            client,
          }),
          ...(recoveryCodesRemaining === null ? {} : { recoveryCodesRemaining, mailQueued: true }),
        };
      });
      if ('mailQueued' in outcome) mailRelay.wake();
      if ('error' in outcome) throw outcome.error;
      return outcome.recoveryCodesRemaining === undefined
        ? { session: outcome.session }
        : { session: outcome.session, recoveryCodesRemaining: outcome.recoveryCodesRemaining };
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
