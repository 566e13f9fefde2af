import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { DEFAULT_PAYOUT_SCHEDULE, DEV_PAYOUT_INSTRUCTION_KEYS } from '@lockdrop/contracts';
import { DEFAULT_PROCESSOR_FEE_BPS } from '@lockdrop/plans';
import { mailEnv } from '@lockdrop/mailer';
import { z } from 'zod';
import { refuseDevelopmentKey, secretKeysEnv } from '@lockdrop/auth';
import { isFlutterwaveTestKey } from './providers/flutterwave.js';

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** The sandbox's public default: anyone who reads the source can sign sandbox webhooks with it. */
const DEV_SANDBOX_WEBHOOK_SECRET = 'lockdrop-sandbox-webhook-secret';

/**
 * Webhook secrets printed in this repository (the development default, docker-compose.yml's
 * demo default, the fixtures of the deploy manifests test and the Flutterwave fake): anyone can
 * sign a webhook with them, so production refuses each as SANDBOX_WEBHOOK_SECRET or
 * FLW_WEBHOOK_HASH. Compared trimmed and case-insensitively.
 */
export const PUBLISHED_WEBHOOK_SECRETS: readonly string[] = [
  DEV_SANDBOX_WEBHOOK_SECRET,
  'compose-demo-sandbox-webhook-secret',
  'a-webhook-secret-hash',
];

const isPublishedSecret = (value: string | undefined) =>
  value !== undefined && PUBLISHED_WEBHOOK_SECRETS.includes(value.trim().toLowerCase());

/** Test-mode payments: the sandbox, or Flutterwave with a test key (`FLWSECK_TEST-…`). */
export function takesTestPayments(config: {
  PAYMENT_PROVIDER: 'sandbox' | 'flutterwave';
  FLW_SECRET_KEY?: string | undefined;
}): boolean {
  return config.PAYMENT_PROVIDER === 'sandbox' || isFlutterwaveTestKey(config.FLW_SECRET_KEY ?? '');
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Development only (published here, so production refuses it): seals payout details at rest. */
const DEV_PAYOUT_ENCRYPTION_KEYS = 'dev:bG9ja2Ryb3AtZGV2ZWxvcG1lbnQtcGF5b3V0LWtleSE=';

/** Spec currencies' smallest payout, in major units; PAYOUT_MINIMUMS overrides per currency. */
const DEFAULT_PAYOUT_MINIMUMS = 'NGN:1000,USD:10,EUR:10,GBP:10,CAD:15,AUD:15';

const payoutMinimums = z
  .string()
  .default(DEFAULT_PAYOUT_MINIMUMS)
  .transform((value, context) => {
    const minimums: Record<string, string> = {};
    for (const entry of `${DEFAULT_PAYOUT_MINIMUMS},${value}`.split(',')) {
      const [currency, amount] = entry.split(':').map((part) => part?.trim() ?? '');
      if (!currency && !amount) continue;
      if (!/^[A-Z]{3}$/.test(currency ?? '') || !/^\d+(\.\d+)?$/.test(amount ?? '')) {
        context.addIssue({
          code: 'custom',
          message: `"${entry}" is not CUR:amount (e.g. NGN:1000)`,
        });
        return z.NEVER;
      }
      minimums[currency!] = amount!;
    }
    return minimums;
  });

export const configSchema = z
  .object({
    ...serviceEnv(3003),
    /** Origin buyers reach the site at (the gateway): provider redirects, sandbox links, receipt links. */
    PUBLIC_URL: env.url('http://localhost:8080'),
    /** `sandbox` (default, no keys: our own hosted test checkout) or `flutterwave` (v3 API). */
    PAYMENT_PROVIDER: z.enum(['sandbox', 'flutterwave']).default('sandbox'),
    FLW_SECRET_KEY: optionalSecret,
    /** The dashboard's webhook "secret hash": compared with `verif-hash` and keys `flutterwave-signature`. */
    FLW_WEBHOOK_HASH: optionalSecret,
    FLW_BASE_URL: env.url('https://api.flutterwave.com/v3'),
    /** Flutterwave may answer 503 after 28 s while still working; we stop waiting before that. */
    PROVIDER_TIMEOUT_MS: positiveInt(15_000),
    /**
     * How long Flutterwave's bank list (`GET /banks/NG`) is reused; when it fails the last list
     * (or the bundled one, providers/nigerian-banks.ts) is served instead. 0: ask every time.
     */
    BANK_LIST_CACHE_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(6 * 3600),
    /** Secret the sandbox signs its webhooks with (only meaningful in development and tests). */
    SANDBOX_WEBHOOK_SECRET: z.string().min(8).default(DEV_SANDBOX_WEBHOOK_SECRET),
    /** Where the sandbox posts its webhooks; unset = this process's own `/api/webhooks/sandbox`. */
    SANDBOX_WEBHOOK_URL: optionalSecret.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** Fee the sandbox reports as `app_fee`, and our estimate when a provider reports none (3.5%). */
    PROCESSOR_FEE_BPS: z.coerce.number().int().min(0).max(5_000).default(DEFAULT_PROCESSOR_FEE_BPS),
    /**
     * Whether the active provider returns its fee when a payment is refunded. Flutterwave keeps
     * it (and the sandbox behaves the same by default), so the seller bears it on a refund.
     */
    PROCESSOR_FEE_REFUNDED: env.boolean(false),
    /** Checkouts one buyer e-mail may start per window, on top of the gateway's per-IP limit. */
    CHECKOUT_EMAIL_LIMIT: positiveInt(10),
    CHECKOUT_EMAIL_WINDOW_SECONDS: positiveInt(600),
    /**
     * How long the payment page of a checkout with a discount code takes payment; the checkout
     * holds one of the code's uses until then, so a limited code is never used past its limit.
     */
    DISCOUNT_CHECKOUT_MINUTES: z.coerce.number().int().min(5).max(1440).default(30),
    /**
     * Free claims are no e-mail relay (issue 30): an address that has not proven itself (no
     * confirmed purchase, not a signed-in verified account) gets one confirmation e-mail whose
     * link works this long (a 100 % code's use is held as long), and no second one for the same
     * claim within the cool-down.
     */
    FREE_CLAIM_CONFIRM_MINUTES: z.coerce.number().int().min(5).max(10_080).default(1_440),
    FREE_CLAIM_MAIL_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(600),
    /** New free claims per rolling hour, per product, per seller and per buyer address (429 beyond). */
    FREE_CLAIMS_PER_PRODUCT_PER_HOUR: positiveInt(30),
    FREE_CLAIMS_PER_SELLER_PER_HOUR: positiveInt(100),
    FREE_CLAIMS_PER_EMAIL_PER_HOUR: positiveInt(5),
    /**
     * How fast update e-mails to a product's past buyers go out ("Tell my buyers"): mail to
     * many is spread out so the mail provider's limits are kept and receipts never wait.
     */
    BULK_MAILS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
    /** Terms §9: refunds within 24 hours of payment. */
    REFUND_WINDOW_HOURS: positiveInt(24),
    /** Days a subscriber keeps access after a renewal failed, while they can still pay (issue 10). */
    SUBSCRIPTION_GRACE_DAYS: positiveInt(3),
    /**
     * Hours past a period's end that access lasts while its renewal is being charged (the
     * provider charges on its own schedule, our clock ticks each minute).
     */
    SUBSCRIPTION_LEEWAY_HOURS: positiveInt(24),
    /** How long a refund waits for delivery to stop the purchase's downloads before giving up. */
    ACCESS_SUSPEND_TIMEOUT_MS: positiveInt(5_000),
    /** Verified e-mails of support staff, comma-separated: they may refund any purchase. */
    SUPPORT_EMAILS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** How often unfinished webhooks and unconfirmed checkouts are re-checked with the provider. */
    RECONCILE_INTERVAL_MS: positiveInt(15_000),
    /**
     * The settler (issue 31): stored charge notifications claimed at once, which is also the most
     * payments one settlement transaction writes.
     */
    SETTLER_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
    /** Verify calls to the provider in flight at once per process (each takes 100–500 ms). */
    SETTLER_VERIFY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
    /** How often each replica looks for notifications another replica stored. */
    SETTLER_POLL_MS: positiveInt(1_000),
    /**
     * A webhook storm (settle-pacing.ts): a group commit of this many charge notifications or
     * more means they queue for the database, and the settler holds off for up to
     * WEBHOOK_STORM_HOLD_MS (0: never) so the provider's deliveries are answered first.
     */
    WEBHOOK_STORM_BATCH: positiveInt(16),
    WEBHOOK_STORM_HOLD_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
    /**
     * Under a steady load, the least time between two of a replica's claims that each took every
     * due notification (settle-pacing.ts): payments settle in batches, not one by one. A payment
     * after a quiet spell is claimed at once. 0: claim as each arrives.
     */
    SETTLER_CADENCE_MS: z.coerce.number().int().min(0).max(5_000).default(100),
    /**
     * After a seller's "You made a sale", their further sales for this long are told in one e-mail
     * at its end (sale-digests.ts): one e-mail a minute at a flash sale, not one per sale. 0: one
     * e-mail per sale.
     */
    SALE_DIGEST_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /** First retry delay of a parked webhook; doubles per attempt, capped at 30 minutes. */
    WEBHOOK_RETRY_BASE_MS: positiveInt(5_000),
    /**
     * A public demo where nobody is charged: lets production run the sandbox or a Flutterwave
     * test key. Without it production refuses both, because the sandbox's Pay button is free.
     */
    ALLOW_TEST_PAYMENTS: env.boolean(false),
    /**
     * `id:base64(32 bytes)[,id:key…]`: AES-256-GCM keys for payout details at rest; the first
     * seals, all open (rotate by prepending a new key). Required in production.
     */
    PAYOUT_ENCRYPTION_KEYS: secretKeysEnv(DEV_PAYOUT_ENCRYPTION_KEYS),
    /**
     * `id:key[,…]` like PAYOUT_ENCRYPTION_KEYS, shared with the worker alone: seals each
     * `payouts.instruction` reply, so a destination crosses the bus encrypted (issue 30).
     * Required in production, and not one of PAYOUT_ENCRYPTION_KEYS (the worker holds it).
     */
    PAYOUT_INSTRUCTION_KEYS: secretKeysEnv(DEV_PAYOUT_INSTRUCTION_KEYS),
    /**
     * Hours earnings stay pending after the refund window before they can be paid out. Outside
     * production it may be negative (down to minus the refund window) so demos and browser tests
     * can pay out a sale at once while refunds stay possible; a later refund then comes out of
     * the available balance.
     */
    PAYOUT_HOLD_HOURS: z.coerce.number().int().default(0),
    /**
     * Fraud cashed out before chargebacks (issue 30): earnings from a seller's first
     * PAYOUT_NEW_SELLER_DAYS (counted from their first sale) stay pending this many more hours.
     * Unset: 168 (7 days) in production, 0 elsewhere.
     */
    PAYOUT_NEW_SELLER_HOLD_HOURS: z.coerce.number().int().min(0).optional(),
    PAYOUT_NEW_SELLER_DAYS: z.coerce.number().int().min(0).default(30),
    /**
     * Velocity limit on first payouts: until a seller has PAYOUT_NEW_SELLER_PAYOUTS paid payouts,
     * at most one payout per PAYOUT_NEW_SELLER_INTERVAL_HOURS (unset: 168 in production, 0 elsewhere).
     */
    PAYOUT_NEW_SELLER_PAYOUTS: z.coerce.number().int().min(0).default(3),
    PAYOUT_NEW_SELLER_INTERVAL_HOURS: z.coerce.number().int().min(0).optional(),
    /**
     * Adding or changing a payout destination needs a proof of identity (password, authenticator
     * code, or an e-mailed code) this recent; an older session is asked to re-authenticate.
     */
    REAUTH_MAX_AGE_SECONDS: positiveInt(600),
    /**
     * Hours payouts wait after a destination is changed, or added while a balance exists, so a
     * hijacked account cannot redirect money before the e-mailed owner reacts. 0 turns it off.
     */
    DESTINATION_CHANGE_HOLD_HOURS: z.coerce.number().int().min(0).default(24),
    /**
     * Exchange rates older than this many hours are not used (issue 30): checkout then sells only
     * in the product's currency and payout conversions wait. 0 = no bound. Unset: 48 in
     * production (the worker refreshes hourly), 0 elsewhere (the shipped seed rates are old).
     */
    FX_MAX_RATE_AGE_HOURS: z.coerce.number().int().min(0).optional(),
    /** Lockdrop's margin on a currency conversion, in basis points (100 = 1 %): checkout and payouts. */
    FX_SPREAD_BPS: z.coerce.number().int().min(0).max(1_000).default(0),
    /** Smallest payout per currency in major units (`NGN:1000,USD:10`); defaults cover the spec's currencies. */
    PAYOUT_MINIMUMS: payoutMinimums,
    /** The worker's payout schedule, so screens can say when the next payout runs (same env as the worker). */
    PAYOUT_CRON: z.string().min(9).default(DEFAULT_PAYOUT_SCHEDULE.pattern),
    PAYOUT_TZ: z.string().min(1).default(DEFAULT_PAYOUT_SCHEDULE.tz),
    ...mailEnv,
    MAIL_FROM: z.string().min(3).default('Lockdrop <receipts@lockdrop.app>'),
  })
  .refine(
    (config) =>
      config.PAYMENT_PROVIDER !== 'flutterwave' ||
      (config.FLW_SECRET_KEY && config.FLW_WEBHOOK_HASH),
    {
      path: ['FLW_SECRET_KEY'],
      message: 'PAYMENT_PROVIDER=flutterwave needs FLW_SECRET_KEY and FLW_WEBHOOK_HASH',
    },
  )
  .refine(
    (config) =>
      config.NODE_ENV !== 'production' || config.ALLOW_TEST_PAYMENTS || !takesTestPayments(config),
    {
      path: ['PAYMENT_PROVIDER'],
      message:
        'production refuses test payments (the sandbox or a FLWSECK_TEST- key): use live Flutterwave keys, or set ALLOW_TEST_PAYMENTS=true for a demo where nobody is charged',
    },
  )
  .refine(
    (config) =>
      config.NODE_ENV !== 'production' ||
      config.PAYMENT_PROVIDER !== 'sandbox' ||
      config.SANDBOX_WEBHOOK_SECRET !== DEV_SANDBOX_WEBHOOK_SECRET,
    {
      path: ['SANDBOX_WEBHOOK_SECRET'],
      message: 'must be set to a private value when the sandbox runs in production',
    },
  )
  .refine(
    (config) =>
      config.NODE_ENV !== 'production' ||
      config.PAYMENT_PROVIDER !== 'sandbox' ||
      !isPublishedSecret(config.SANDBOX_WEBHOOK_SECRET),
    {
      path: ['SANDBOX_WEBHOOK_SECRET'],
      message:
        'is an example published in this repository; production needs a private value (e.g. openssl rand -base64 24)',
    },
  )
  .refine(
    (config) => config.NODE_ENV !== 'production' || !isPublishedSecret(config.FLW_WEBHOOK_HASH),
    {
      path: ['FLW_WEBHOOK_HASH'],
      message:
        'is an example published in this repository; production needs a private value (e.g. openssl rand -base64 24)',
    },
  )
  .refine(
    (config) =>
      config.PAYOUT_HOLD_HOURS >=
      (config.NODE_ENV === 'production' ? 0 : -config.REFUND_WINDOW_HOURS),
    {
      path: ['PAYOUT_HOLD_HOURS'],
      message:
        'must be 0 or more in production (earnings wait out the refund window), and no less than minus REFUND_WINDOW_HOURS elsewhere',
    },
  )
  .refine(
    ...refuseDevelopmentKey(
      'PAYOUT_ENCRYPTION_KEYS',
      DEV_PAYOUT_ENCRYPTION_KEYS,
      'production needs its own key (PAYOUT_ENCRYPTION_KEYS=k1:$(openssl rand -base64 32))',
    ),
  )
  .refine(
    ...refuseDevelopmentKey(
      'PAYOUT_INSTRUCTION_KEYS',
      DEV_PAYOUT_INSTRUCTION_KEYS,
      'production needs its own key, the same in payments and the worker (PAYOUT_INSTRUCTION_KEYS=k1:$(openssl rand -base64 32))',
    ),
  )
  .refine(
    (config) =>
      !config.PAYOUT_INSTRUCTION_KEYS.some((instruction) =>
        config.PAYOUT_ENCRYPTION_KEYS.some((atRest) => atRest.key.equals(instruction.key)),
      ),
    {
      path: ['PAYOUT_INSTRUCTION_KEYS'],
      message:
        'must not reuse a PAYOUT_ENCRYPTION_KEYS key: the worker holds this one, and must not open payout details at rest',
    },
  );
export type PaymentsConfig = z.infer<typeof configSchema>;
