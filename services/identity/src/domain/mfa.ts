import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import type { MailRelay } from '@lockdrop/mailer';
import QRCode from 'qrcode';
import { deleteFactor, findFactor, recordFactorUse, upsertPendingFactor } from '../db/mfa.repo.js';
import { countUnusedCodes, replaceRecoveryCodes } from '../db/recovery-codes.repo.js';
import { requireAccount } from './account.js';
import type { Emails } from './emails.js';
import { authErrors } from './errors.js';
import { isTotpCode, newRecoveryCodeSet, spendRecoveryCode } from './recovery-codes.js';
import type { Throttle } from './throttle.js';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.js';

export interface MfaEnrollment {
  secret: string;
  otpauthUri: string;
  /** A PNG data URL of the otpauth URI, ready for an <img>. */
  qrCodeDataUrl: string;
}

export interface MfaStatus {
  enabled: boolean;
  pending: boolean;
  /** Unused recovery codes; 0 when MFA is off. */
  recoveryCodesRemaining: number;
}

interface MfaDeps {
  pool: Pool;
  throttle: Throttle;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
}

/**
 * TOTP two-factor: enrol (pending until a first code proves the app has the secret), then
 * challenge at sign-in. Turning it on hands out ten one-time recovery codes
 * (domain/recovery-codes.ts); wherever a current code is asked for, one of them does instead.
 */
export function createMfaService({ pool, throttle, emails, mailRelay }: MfaDeps) {
  /** Checks a current code (or an unused recovery code) against the user's factor and spends it. */
  const acceptCode = async (
    userId: string,
    code: string,
    options: {
      requireVerified: boolean;
      verify?: boolean;
      /** Runs in the same transaction once the code is accepted. */
      then?: (tx: PoolClient) => Promise<void>;
    },
  ) => {
    await throttle.hit(`mfa:account:${userId}`, throttle.limits.mfaPerAccount);
    const spentRecoveryCode = await withTransaction(pool, async (tx) => {
      const factor = await findFactor(tx, userId, { forUpdate: true });
      if (!factor || (options.requireVerified && !factor.verified))
        throw authErrors.mfaNotEnrolled();
      let recovery = false;
      if (isTotpCode(code)) {
        const step = matchTotp(factor.secret, code);
        if (step === null || (factor.lastUsedStep !== null && step <= factor.lastUsedStep))
          throw authErrors.invalidMfaCode();
        await recordFactorUse(tx, userId, step, { verify: options.verify ?? false });
      } else {
        // Only a factor already on has recovery codes; proving a new app takes its own code.
        if (!factor.verified || (await spendRecoveryCode(tx, userId, code, emails)) === null)
          throw authErrors.invalidMfaCode();
        recovery = true;
      }
      await options.then?.(tx);
      return recovery;
    });
    if (spentRecoveryCode) mailRelay.wake();
  };

  return {
    async status(userId: string): Promise<MfaStatus> {
      const factor = await findFactor(pool, userId);
      return {
        enabled: factor?.verified ?? false,
        pending: factor !== null && !factor.verified,
        recoveryCodesRemaining: factor?.verified ? await countUnusedCodes(pool, userId) : 0,
      };
    },

    async enroll(userId: string): Promise<MfaEnrollment> {
      const { user } = await requireAccount(pool, userId);
      // A factor on an unproven address could lock its real owner out once they claim it.
      if (!user.emailVerified) throw authErrors.mfaNeedsVerifiedEmail();
      const secret = newTotpSecret();
      if (!(await upsertPendingFactor(pool, userId, secret))) throw authErrors.mfaAlreadyEnrolled();
      const uri = otpauthUri(secret, user.email);
      return { secret, otpauthUri: uri, qrCodeDataUrl: await QRCode.toDataURL(uri) };
    },

    /**
     * Turns a pending enrolment on with the first code from the app, and answers the ten
     * recovery codes — the only time they are shown; only their hashes are kept.
     */
    async verifyEnrollment(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
      const factor = await findFactor(pool, userId);
      if (!factor) throw authErrors.mfaNotEnrolled();
      if (factor.verified) throw authErrors.mfaAlreadyEnrolled();
      if (!isTotpCode(code)) throw authErrors.invalidMfaCode();
      const set = await newRecoveryCodeSet();
      await acceptCode(userId, code, {
        requireVerified: false,
        verify: true,
        then: (tx) => replaceRecoveryCodes(tx, userId, set.hashes),
      });
      return { recoveryCodes: set.codes };
    },

    /**
     * A new set of ten; the old set stops working at once. The route asks for a recent proof of
     * identity first (a stolen session must not read fresh codes).
     */
    async regenerateRecoveryCodes(userId: string): Promise<{ recoveryCodes: string[] }> {
      const set = await newRecoveryCodeSet();
      await withTransaction(pool, async (tx) => {
        const factor = await findFactor(tx, userId, { forUpdate: true });
        if (!factor?.verified) throw authErrors.mfaNotEnrolled();
        await replaceRecoveryCodes(tx, userId, set.hashes);
      });
      return { recoveryCodes: set.codes };
    },

    /** A current code from the app (or a recovery code) proves who is at the keyboard (re-authentication). */
    confirmCode: (userId: string, code: string) =>
      acceptCode(userId, code, { requireVerified: true }),

    /**
     * Turning MFA off needs a current code, so a stolen session alone cannot do it; a recovery
     * code does too, so a seller whose phone is gone can set up a new one. Its codes go with it.
     */
    async unenroll(userId: string, code: string): Promise<void> {
      await acceptCode(userId, code, {
        requireVerified: true,
        then: (tx) => deleteFactor(tx, userId),
      });
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
