import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { DEFAULT_PAYOUT_SCHEDULE } from '@lockdrop/contracts';
import { z } from 'zod';

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const configSchema = z
  .object({
    ...serviceEnv(3006),
    REDIS_URL: env.redisUrl,

    /** Payout runs: business days at 09:00 in Lagos (terms: paid out in 1–3 business days). */
    PAYOUT_CRON: z.string().min(9).default(DEFAULT_PAYOUT_SCHEDULE.pattern),
    PAYOUT_TZ: z.string().min(1).default(DEFAULT_PAYOUT_SCHEDULE.tz),
    /**
     * Who carries transfers: `sandbox` (default, no keys: completes after SANDBOX_PAYOUT_DELAY_MS;
     * bank accounts ending in 0000 fail) or `live` (bank → Flutterwave, Wise, Payoneer, each
     * with its keys below).
     */
    PAYOUT_PROVIDER: z.enum(['sandbox', 'live']).default('sandbox'),
    SANDBOX_PAYOUT_DELAY_MS: z.coerce.number().int().min(0).default(3_000),
    /** First re-check of a submitted transfer whose webhook has not come; doubles, capped at 1 h. */
    PAYOUT_POLL_MS: positiveInt(60_000),
    /** Attempts of a payout job before it is kept as failed for an operator (exponential backoff). */
    PAYOUT_JOB_ATTEMPTS: positiveInt(8),
    PAYOUT_BACKOFF_MS: positiveInt(10_000),
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
    /** Exchange-rate refresh: hourly. */
    FX_CRON: z.string().min(9).default('0 * * * *'),
    /** `flutterwave` (GET /v3/transfers/rates, needs FLW_SECRET_KEY) or `url` (a `{ base, rates }` JSON feed at FX_URL). */
    FX_SOURCE: z.enum(['flutterwave', 'url']).default('url'),
    FX_URL: optionalSecret.pipe(z.url({ protocol: /^https?$/ }).optional()),
  })
  .refine((config) => config.PAYOUT_PROVIDER !== 'live' || config.FLW_SECRET_KEY, {
    path: ['FLW_SECRET_KEY'],
    message: 'PAYOUT_PROVIDER=live sends bank payouts through Flutterwave and needs FLW_SECRET_KEY',
  })
  .refine((config) => config.FX_SOURCE !== 'flutterwave' || config.FLW_SECRET_KEY, {
    path: ['FLW_SECRET_KEY'],
    message: 'FX_SOURCE=flutterwave needs FLW_SECRET_KEY',
  });
export type WorkerConfig = z.infer<typeof configSchema>;
