import { refuseDevelopmentKey, secretKeysEnv } from '@lockdrop/auth';
import { env, redisEnv } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { DEFAULT_PAYOUT_SCHEDULE, DEV_PAYOUT_INSTRUCTION_KEYS } from '@lockdrop/contracts';
import { mailEnv } from '@lockdrop/mailer';
import { z } from 'zod';

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Development only (published here, so production refuses it): seals webhook secrets at rest. */
const DEV_WEBHOOK_ENCRYPTION_KEYS = 'dev:bG9ja2Ryb3AtZGV2LXdlYmhvb2stc2VjcmV0cy1rZXk=';

export const configSchema = z
  .object({
    ...serviceEnv(3006),
    ...redisEnv,

    /** Payout runs: business days at 09:00 in Lagos (terms: paid out in 1–3 business days). */
    PAYOUT_CRON: z.string().min(9).default(DEFAULT_PAYOUT_SCHEDULE.pattern),
    PAYOUT_TZ: z.string().min(1).default(DEFAULT_PAYOUT_SCHEDULE.tz),
    /**
     * Who carries transfers: `sandbox` (default, no keys: completes after SANDBOX_PAYOUT_DELAY_MS;
     * bank accounts ending in 0000 fail) or `live` (bank → Flutterwave, Wise, Payoneer, each
     * with its keys below).
     */
    PAYOUT_PROVIDER: z.enum(['sandbox', 'live']).default('sandbox'),
    /**
     * Set to the same value as payments' ALLOW_TEST_PAYMENTS (a demo where nobody is charged).
     * Production refuses it beside PAYOUT_PROVIDER=live: test money must never become a real
     * payout. Test-mode payouts go to the sandbox either way (payout.requested carries testMode).
     */
    ALLOW_TEST_PAYMENTS: env.boolean(false),
    SANDBOX_PAYOUT_DELAY_MS: z.coerce.number().int().min(0).default(3_000),
    /** First re-check of a submitted transfer whose webhook has not come; doubles, capped at 1 h. */
    PAYOUT_POLL_MS: positiveInt(60_000),
    /** Attempts of a payout job before it is kept as failed for an operator (exponential backoff). */
    PAYOUT_JOB_ATTEMPTS: positiveInt(8),
    PAYOUT_BACKOFF_MS: positiveInt(10_000),
    /**
     * Redis replicas that must hold a new payout job before its `payout.requested` counts as
     * handled (Redis's WAIT; 1 in the prod overlay, which runs Redis with Sentinel). Replication
     * is asynchronous: a job only on a primary that dies before passing it on would vanish, and
     * nothing would ask for that payout again. Unheld, the event is handled again later (the job
     * id is the payout's, so the same job). 0: one Redis, nothing to wait for.
     */
    PAYOUT_JOB_REPLICAS: z.coerce.number().int().min(0).max(5).default(0),
    PAYOUT_JOB_REPLICA_TIMEOUT_MS: positiveInt(2_000),
    /** How long the worker waits for payments to answer `payouts.instruction`. */
    INSTRUCTION_TIMEOUT_MS: positiveInt(5_000),
    PROVIDER_TIMEOUT_MS: positiveInt(15_000),
    FLW_SECRET_KEY: optionalSecret,
    FLW_BASE_URL: env.url('https://api.flutterwave.com/v3'),
    WISE_API_TOKEN: optionalSecret,
    WISE_PROFILE_ID: optionalSecret,
    WISE_BASE_URL: env.url('https://api.wise.com'),
    PAYONEER_CLIENT_ID: optionalSecret,
    PAYONEER_CLIENT_SECRET: optionalSecret,
    PAYONEER_PROGRAM_ID: optionalSecret,
    PAYONEER_BASE_URL: env.url('https://api.payoneer.com'),
    /** [?] OAuth2 client-credentials endpoint as integrators use it; check with Payoneer. */
    PAYONEER_TOKEN_URL: env.url('https://login.payoneer.com/api/v2/oauth2/token'),

    /** When services prune bookkeeping (processed event ids, published outbox rows): nightly. */
    RETENTION_CRON: z.string().min(9).default('30 3 * * *'),
    /** The subscription clock (renewals, grace periods, reminders): every minute. */
    SUBSCRIPTIONS_CRON: z.string().min(9).default('* * * * *'),
    /**
     * The custom-domain clock (issue 28): catalog looks every domain's DNS records up again;
     * a verified domain missing them on DOMAIN_FAILED_CHECKS_BEFORE_PAUSE firings in a row pauses.
     */
    DOMAIN_RECHECK_CRON: z.string().min(9).default('17 * * * *'),
    /** Exchange-rate refresh: hourly. */
    FX_CRON: z.string().min(9).default('0 * * * *'),
    /**
     * Where exchange rates come from: `seed` (default, offline: only the rates file shipped in
     * seed/exchange-rates.json, no refresh), `url` (a `{ base: "USD", rates }` JSON feed at
     * FX_URL) or `flutterwave` (GET /transfers/rates at FLW_BASE_URL, needs FLW_SECRET_KEY).
     */
    FX_SOURCE: z.enum(['seed', 'url', 'flutterwave']).default('seed'),
    FX_URL: optionalSecret.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** Every currency priced against USD; the default is catalog's supported_currencies. */
    FX_CURRENCIES: z
      .string()
      .default('USD,EUR,GBP,NGN,CAD,AUD,GHS,KES,ZAR,UGX,XOF')
      .transform((list) => [...new Set(list.split(',').map((code) => code.trim().toUpperCase()))])
      .pipe(z.array(z.string().regex(/^[A-Z]{3}$/, 'must be ISO 4217 codes, comma-separated'))),
    /** One request to the rate source; a refresh that times out keeps the last good rates. */
    FX_TIMEOUT_MS: positiveInt(10_000),
    /**
     * A refresh in which any rate moved more than this many percent from the last published set
     * is refused and counted (`reason="implausible"`); 0 turns the bound off.
     */
    FX_MAX_CHANGE_PERCENT: z.coerce.number().min(0).max(1_000).default(25),
    /** Attempts of one refresh (exponential backoff from FX_BACKOFF_MS) before the next tick. */
    FX_JOB_ATTEMPTS: positiveInt(4),
    FX_BACKOFF_MS: positiveInt(30_000),

    /** Outgoing webhooks (README "Webhooks for sellers"): one attempt's whole time budget. */
    WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
    /**
     * Attempts of one delivery, the n-th retry WEBHOOK_BACKOFF_MS × 2^(n-1) after the previous:
     * 12 attempts from 42 s span ≈ 24 h (42 s, 84 s, … 12 h). Then the endpoint is disabled and
     * its seller e-mailed. Tests compress the schedule to milliseconds.
     */
    WEBHOOK_ATTEMPTS: positiveInt(12),
    WEBHOOK_BACKOFF_MS: positiveInt(42_000),
    /**
     * Lets endpoints on 127.0.0.0/8 and ::1 receive deliveries (tests, local development).
     * Private, link-local, CGNAT and multicast addresses stay refused; production refuses it.
     */
    WEBHOOK_ALLOW_LOOPBACK: env.boolean(false),
    /**
     * `id:base64(32 bytes)[,id:key…]`: AES-256-GCM keys for endpoint signing secrets at rest; the
     * first seals, all open (rotate by prepending a new key). Required in production.
     */
    WEBHOOK_ENCRYPTION_KEYS: secretKeysEnv(DEV_WEBHOOK_ENCRYPTION_KEYS),
    /**
     * Showing or rotating an endpoint's signing secret needs a proof of identity (password,
     * authenticator code, or an e-mailed code) this recent: a stolen session must not learn the
     * secret that lets it forge the store's webhooks. As payments' REAUTH_MAX_AGE_SECONDS.
     */
    REAUTH_MAX_AGE_SECONDS: positiveInt(600),
    /**
     * The keys payments seals `payouts.instruction` answers with (payments' PAYOUT_INSTRUCTION_KEYS,
     * the same value): the worker opens each for the payout it asked about (issue 30).
     * Required in production.
     */
    PAYOUT_INSTRUCTION_KEYS: secretKeysEnv(DEV_PAYOUT_INSTRUCTION_KEYS),
    /** The site sellers are sent to from e-mails (a disabled endpoint's settings). */
    PUBLIC_URL: env.url('http://localhost:8080'),
    MAIL_FROM: z.string().min(3).default('Lockdrop <no-reply@lockdrop.app>'),
    ...mailEnv,
  })
  .refine((config) => config.PAYOUT_PROVIDER !== 'live' || config.FLW_SECRET_KEY, {
    path: ['FLW_SECRET_KEY'],
    message: 'PAYOUT_PROVIDER=live sends bank payouts through Flutterwave and needs FLW_SECRET_KEY',
  })
  .refine(
    (config) =>
      config.NODE_ENV !== 'production' ||
      config.PAYOUT_PROVIDER !== 'live' ||
      !config.ALLOW_TEST_PAYMENTS,
    {
      path: ['PAYOUT_PROVIDER'],
      message:
        'production refuses live payouts while payments takes test payments (ALLOW_TEST_PAYMENTS=true): use PAYOUT_PROVIDER=sandbox for a demo, or turn test payments off',
    },
  )
  .refine((config) => config.NODE_ENV !== 'production' || !config.WEBHOOK_ALLOW_LOOPBACK, {
    path: ['WEBHOOK_ALLOW_LOOPBACK'],
    message: 'production refuses webhook deliveries to loopback addresses (SSRF): unset it',
  })
  .refine(
    ...refuseDevelopmentKey(
      'WEBHOOK_ENCRYPTION_KEYS',
      DEV_WEBHOOK_ENCRYPTION_KEYS,
      'production needs its own key (WEBHOOK_ENCRYPTION_KEYS=k1:$(openssl rand -base64 32))',
    ),
  )
  .refine(
    ...refuseDevelopmentKey(
      'PAYOUT_INSTRUCTION_KEYS',
      DEV_PAYOUT_INSTRUCTION_KEYS,
      "production needs payments' own key here (PAYOUT_INSTRUCTION_KEYS, the same value as payments')",
    ),
  )
  .refine((config) => config.FX_SOURCE !== 'flutterwave' || config.FLW_SECRET_KEY, {
    path: ['FLW_SECRET_KEY'],
    message: 'FX_SOURCE=flutterwave needs FLW_SECRET_KEY',
  })
  .refine((config) => config.FX_SOURCE !== 'url' || config.FX_URL, {
    path: ['FX_URL'],
    message: 'FX_SOURCE=url needs FX_URL (a JSON feed { "base": "USD", "rates": { … } })',
  });
export type WorkerConfig = z.infer<typeof configSchema>;
