import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';
import { isFlutterwaveTestKey } from './providers/flutterwave.js';

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** The sandbox's public default: anyone who reads the source can sign sandbox webhooks with it. */
const DEV_SANDBOX_WEBHOOK_SECRET = 'lockdrop-sandbox-webhook-secret';

/** Test-mode payments: the sandbox, or Flutterwave with a test key (`FLWSECK_TEST-…`). */
export function takesTestPayments(config: {
  PAYMENT_PROVIDER: 'sandbox' | 'flutterwave';
  FLW_SECRET_KEY?: string | undefined;
}): boolean {
  return config.PAYMENT_PROVIDER === 'sandbox' || isFlutterwaveTestKey(config.FLW_SECRET_KEY ?? '');
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

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
    /** Secret the sandbox signs its webhooks with (only meaningful in development and tests). */
    SANDBOX_WEBHOOK_SECRET: z.string().min(8).default(DEV_SANDBOX_WEBHOOK_SECRET),
    /** Where the sandbox posts its webhooks; unset = this process's own `/api/webhooks/sandbox`. */
    SANDBOX_WEBHOOK_URL: optionalSecret.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** Fee the sandbox reports as `app_fee`, and our estimate when a provider reports none (3.5%). */
    PROCESSOR_FEE_BPS: z.coerce.number().int().min(0).max(5_000).default(350),
    /**
     * Whether the active provider returns its fee when a payment is refunded. Flutterwave keeps
     * it (and the sandbox behaves the same by default), so the seller bears it on a refund.
     */
    PROCESSOR_FEE_REFUNDED: env.boolean(false),
    /** Checkouts one buyer e-mail may start per window, on top of the gateway's per-IP limit. */
    CHECKOUT_EMAIL_LIMIT: positiveInt(10),
    CHECKOUT_EMAIL_WINDOW_SECONDS: positiveInt(600),
    /** Terms §9: refunds within 24 hours of payment. */
    REFUND_WINDOW_HOURS: positiveInt(24),
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
    /** First retry delay of a parked webhook; doubles per attempt, capped at 30 minutes. */
    WEBHOOK_RETRY_BASE_MS: positiveInt(5_000),
    /**
     * A public demo where nobody is charged: lets production run the sandbox or a Flutterwave
     * test key. Without it production refuses both, because the sandbox's Pay button is free.
     */
    ALLOW_TEST_PAYMENTS: env.boolean(false),
    SMTP_URL: optionalSecret,
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
  );
export type PaymentsConfig = z.infer<typeof configSchema>;
