import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { mailEnv } from '@lockdrop/mailer';
import { z } from 'zod';
import { SigningKeysError, parsePrivateKeySet } from './keys/key-ring.js';

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

export const configSchema = z
  .object({
    ...serviceEnv(3001),
    /** Origin people reach the site at (the gateway): links in e-mails and OAuth redirects. */
    PUBLIC_URL: env.url('http://localhost:8080'),
    /**
     * JSON JWK set of Ed25519 private keys (`{"keys":[{kty:"OKP",crv:"Ed25519",d,x,kid}]}`). All are
     * published; the last one is the newest and signs. Required in production. Unset in
     * development: keys are generated once and kept in the database (src/keys/signing-keys.ts).
     */
    JWT_PRIVATE_KEYS: optionalSecret.superRefine((value, context) => {
      if (value === undefined) return;
      try {
        parsePrivateKeySet(value);
      } catch (error) {
        if (!(error instanceof SigningKeysError)) throw error;
        context.addIssue({ code: 'custom', message: error.message });
      }
    }),
    /** `smtp(s)://user:pass@host:port`; unset: e-mails go to the development mailbox. */
    ...mailEnv,
    MAIL_FROM: z.string().min(3).default('Lockdrop <no-reply@lockdrop.app>'),
    /** Where contact-form messages are delivered. */
    CONTACT_INBOX: z.email().default('hello@lockdrop.app'),
    GOOGLE_CLIENT_ID: optionalSecret,
    GOOGLE_CLIENT_SECRET: optionalSecret,
    /** The OpenID provider behind "Sign in with Google"; tests point it at a local provider. */
    GOOGLE_ISSUER: env.url('https://accounts.google.com'),
    /**
     * A refresh token presented again within this many seconds of its rotation (two tabs
     * refreshing at once) gets a new access token instead of revoking the session.
     */
    /** Sign-in attempts per client IP per 15 minutes (per-account limits are fixed). */
    SIGN_IN_PER_IP_LIMIT: z.coerce.number().int().positive().default(20),
    /** Password-reset requests per client IP per 15 minutes. */
    PASSWORD_RESET_PER_IP_LIMIT: z.coerce.number().int().positive().default(10),
    REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
    /**
     * A new set of MFA recovery codes needs a proof of identity (password or authenticator code)
     * this recent on the session; older sessions get 403 `reauthentication_required`. The same
     * rule and default as payments' for payout destinations.
     */
    REAUTH_MAX_AGE_SECONDS: z.coerce.number().int().positive().default(600),
    /**
     * HMAC key for stored API-key hashes (domain/api-keys.ts). Changing it invalidates every key.
     * Unset: a public development key (identity warns in production). Keys stay unguessable either
     * way (238 random bits); this key is what makes a stolen table useless for checking a leaked key.
     */
    API_KEY_HASH_SECRET: optionalSecret.pipe(z.string().min(32).optional()),
  })
  .refine((config) => config.NODE_ENV !== 'production' || config.JWT_PRIVATE_KEYS !== undefined, {
    // Keys kept in our own schema are readable by anyone who reads the database: in production
    // the signing keys come from a secret store only.
    path: ['JWT_PRIVATE_KEYS'],
    message: 'must be set in production (print a new key set with `npm run jwt-key`)',
  })
  .refine((config) => Boolean(config.GOOGLE_CLIENT_ID) === Boolean(config.GOOGLE_CLIENT_SECRET), {
    path: ['GOOGLE_CLIENT_SECRET'],
    message: 'set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither',
  });
export type IdentityConfig = z.infer<typeof configSchema>;
