import { withTransaction, type Pool } from '@lockdrop/db';
import QRCode from 'qrcode';
import { deleteFactor, findFactor, recordFactorUse, upsertPendingFactor } from '../db/mfa.repo.js';
import { requireAccount } from './account.js';
import { authErrors } from './errors.js';
import type { Throttle } from './throttle.js';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.js';

export interface MfaEnrollment {
  secret: string;
  otpauthUri: string;
  /** A PNG data URL of the otpauth URI, ready for an <img>. */
  qrCodeDataUrl: string;
}

/** TOTP two-factor: enrol (pending until a first code proves the app has the secret), then challenge at sign-in. */
export function createMfaService({ pool, throttle }: { pool: Pool; throttle: Throttle }) {
  /** Checks a current code against the user's factor and burns its time step. */
  const acceptCode = async (
    userId: string,
    code: string,
    options: { requireVerified: boolean; verify?: boolean },
  ) => {
    await throttle.hit(`mfa:account:${userId}`, throttle.limits.mfaPerAccount);
    await withTransaction(pool, async (tx) => {
      const factor = await findFactor(tx, userId, { forUpdate: true });
      if (!factor || (options.requireVerified && !factor.verified))
        throw authErrors.mfaNotEnrolled();
      const step = matchTotp(factor.secret, code);
      if (step === null || (factor.lastUsedStep !== null && step <= factor.lastUsedStep))
        throw authErrors.invalidMfaCode();
      await recordFactorUse(tx, userId, step, { verify: options.verify ?? false });
    });
  };

  return {
    async status(userId: string): Promise<{ enabled: boolean; pending: boolean }> {
      const factor = await findFactor(pool, userId);
      return { enabled: factor?.verified ?? false, pending: factor !== null && !factor.verified };
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

    /** Turns a pending enrolment on with the first code from the app. */
    async verifyEnrollment(userId: string, code: string): Promise<void> {
      const factor = await findFactor(pool, userId);
      if (!factor) throw authErrors.mfaNotEnrolled();
      if (factor.verified) throw authErrors.mfaAlreadyEnrolled();
      await acceptCode(userId, code, { requireVerified: false, verify: true });
    },

    /** A current code from the app proves who is at the keyboard (re-authentication). */
    confirmCode: (userId: string, code: string) =>
      acceptCode(userId, code, { requireVerified: true }),

    /** Turning MFA off needs a current code, so a stolen session alone cannot do it. */
    async unenroll(userId: string, code: string): Promise<void> {
      await acceptCode(userId, code, { requireVerified: true });
      await deleteFactor(pool, userId);
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
