import type { AddressInfo } from 'node:net';
import type { TokenVerifier } from '@lockdrop/auth';
import type { CommandRequest } from '@lockdrop/contracts';
import { createPool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { createMailer, dkimFromEnv, mailboxSchema, startMailRelay } from '@lockdrop/mailer';
import { createServiceApp } from '@lockdrop/service';
import type { PaymentsConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createSecretBox, newSellerRules, payoutMetrics } from './modules/payouts/index.js';
import { createBuyerUpdatesService } from './modules/buyer-updates/index.js';
import { subscribeToBuyerUpdates } from './modules/buyer-updates/index.js';
import { subscribeToPayoutEvents } from './modules/payouts/index.js';
import { fxPolicy, subscribeToReadModelEvents } from './modules/read-models/index.js';
import { subscribeToSubscriptionsDue } from './modules/renewals/index.js';
import { countOpenUnmatchedRenewals } from './modules/subscriptions/index.js';
import { startReconciler } from './modules/settlement/index.js';
import { createFlutterwaveProvider } from './providers/flutterwave.js';
import { createSandbox, type Sandbox } from './providers/sandbox.js';
import type { PaymentProvider } from './providers/types.js';
import { apiV1MoneyRoutes } from './modules/api-v1/index.js';
import { checkoutRoutes } from './modules/checkout/index.js';
import { buyerUpdateRoutes } from './modules/buyer-updates/index.js';
import { discountRoutes } from './modules/discounts/index.js';
import { createDiscountService } from './modules/discounts/index.js';
import { payoutRoutes } from './modules/payouts/index.js';
import { salesRoutes } from './modules/sales/index.js';
import { refundRoutes } from './modules/refunds/index.js';
import { paymentStatusRoutes } from './modules/settlement/index.js';
import { sandboxRoutes } from './providers/sandbox.routes.js';
import { subscriptionRoutes } from './modules/renewals/index.js';
import { webhookRoutes } from './modules/settlement/index.js';
import { startSaleDigests } from './modules/sales/index.js';
import { Counter, Gauge } from 'prom-client';
import { pruneSettledProviderEvents } from './modules/settlement/index.js';

/** What tests (and only tests) substitute: token verification and the clock. */
export interface PaymentsDeps {
  verifier?: TokenVerifier;
  now?: () => Date;
}

/** Checkouts, provider webhooks, purchases, the ledger, refunds and receipts. */
export async function buildApp(
  config: PaymentsConfig,
  deps: PaymentsDeps = {},
): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({
    name: 'payments',
    config,
    migrations,
    verifier: deps.verifier,
    prune: pruneSettledProviderEvents,
    sharedSchemas: [mailboxSchema],
  });
  const { pool } = infra;
  const now = deps.now ?? (() => new Date());
  const publicUrl = config.PUBLIC_URL.replace(/\/+$/, '');
  const logger = app.log;

  const mailer = await createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    pool,
    dkim: dkimFromEnv(config),
  });
  const mailRelay = startMailRelay({ pool, mailer, logger });

  let sandbox: Sandbox | undefined;
  let provider: PaymentProvider;
  if (config.PAYMENT_PROVIDER === 'flutterwave') {
    provider = createFlutterwaveProvider({
      baseUrl: config.FLW_BASE_URL,
      secretKey: config.FLW_SECRET_KEY!,
      webhookHash: config.FLW_WEBHOOK_HASH!,
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
      bankListCacheSeconds: config.BANK_LIST_CACHE_SECONDS,
      onBankListFallback: (error, served) =>
        logger.warn({ err: error, served }, 'flutterwave bank list failed: serving a fallback'),
    });
  } else {
    sandbox = createSandbox({
      pool,
      publicUrl,
      webhookSecret: config.SANDBOX_WEBHOOK_SECRET,
      processorFeeBps: config.PROCESSOR_FEE_BPS,
      webhookUrl: () =>
        config.SANDBOX_WEBHOOK_URL ?? ownUrl(app, publicUrl, '/api/webhooks/sandbox'),
      logger,
    });
    provider = sandbox.provider;
  }
  // Only the configured provider's webhooks are accepted: the sandbox's public secret is no way in.
  const providers: ReadonlyMap<string, PaymentProvider> = new Map([[provider.name, provider]]);

  const settlement = {
    pool,
    provider,
    processorFeeBps: config.PROCESSOR_FEE_BPS,
    publicUrl,
    refundWindowHours: config.REFUND_WINDOW_HOURS,
    now,
    saleDigestSeconds: config.SALE_DIGEST_SECONDS,
    onMailQueued: () => mailRelay.wake(),
    subscriptions: {
      graceDays: config.SUBSCRIPTION_GRACE_DAYS,
      leewayHours: config.SUBSCRIPTION_LEEWAY_HOURS,
    },
    logger,
  };
  new Gauge({
    name: 'payments_renewals_unmatched_open',
    help: 'Provider renewals no single subscription could claim, waiting for an operator (npm run renewals)',
    registers: [app.metricsRegistry],
    async collect() {
      this.set(await countOpenUnmatchedRenewals(pool));
    },
  });
  const exhaustedEvents = new Counter({
    name: 'payments_provider_events_exhausted_total',
    help: 'Stored provider events that used their last automatic attempt (need an operator)',
    registers: [app.metricsRegistry],
  });
  const refunds = {
    pool,
    providers,
    suspendAccess: (hold: CommandRequest<'access.suspend_for_refund'>) =>
      infra.bus.request('access.suspend_for_refund', hold, {
        timeoutMs: config.ACCESS_SUSPEND_TIMEOUT_MS,
      }),
    refundWindowHours: config.REFUND_WINDOW_HOURS,
    processorFeeRefunded: config.PROCESSOR_FEE_REFUNDED,
    supportEmails: config.SUPPORT_EMAILS,
    publicUrl,
    subscriptions: settlement.subscriptions,
    now,
    logger,
  };
  const webhookDeps = {
    settleSoon: (deliveries: number, storedNew: boolean) =>
      reconciler.stored(deliveries, storedNew),
    ...settlement,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    onEventExhausted: () => exhaustedEvents.inc(),
    refunds,
  };

  const box = createSecretBox(config.PAYOUT_ENCRYPTION_KEYS);
  const fx = fxPolicy(config);
  const payoutDeps = {
    fx,
    pool,
    box,
    instructionBox: createSecretBox(config.PAYOUT_INSTRUCTION_KEYS),
    now,
    publicUrl,
    refundWindowHours: config.REFUND_WINDOW_HOURS,
    holdHours: config.PAYOUT_HOLD_HOURS,
    minimums: config.PAYOUT_MINIMUMS,
    schedule: { pattern: config.PAYOUT_CRON, tz: config.PAYOUT_TZ },
    logger,
    ...payoutMetrics(app.metricsRegistry, pool),
    // New sellers' hold and first-payout velocity: on by default in production only.
    newSellers: newSellerRules(config),
  };

  await subscribeToReadModelEvents(infra.bus, pool);
  await subscribeToBuyerUpdates(infra.bus, {
    pool,
    publicUrl,
    bulkMailsPerMinute: config.BULK_MAILS_PER_MINUTE,
  });
  await subscribeToPayoutEvents(infra.bus, payoutDeps);
  const checkoutDeps = {
    pool,
    provider,
    publicUrl,
    emailLimit: config.CHECKOUT_EMAIL_LIMIT,
    emailWindowSeconds: config.CHECKOUT_EMAIL_WINDOW_SECONDS,
    now,
    logger,
    fx,
  };
  const renewals = { ...settlement, checkout: checkoutDeps, refunds };
  await subscribeToSubscriptionsDue(infra.bus, pool, renewals);
  const reconciler = startReconciler(webhookDeps, {
    intervalMs: config.RECONCILE_INTERVAL_MS,
    settlerPollMs: config.SETTLER_POLL_MS,
    pacing:
      config.WEBHOOK_STORM_HOLD_MS > 0 || config.SETTLER_CADENCE_MS > 0
        ? {
            stormBatch: config.WEBHOOK_STORM_BATCH,
            maxHoldMs: config.WEBHOOK_STORM_HOLD_MS,
            cadenceMs: config.SETTLER_CADENCE_MS,
          }
        : undefined,
    settler: {
      batchSize: config.SETTLER_BATCH_SIZE,
      verifyConcurrency: config.SETTLER_VERIFY_CONCURRENCY,
      providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
    },
  });
  const saleDigests = startSaleDigests({
    pool,
    publicUrl,
    windowSeconds: config.SALE_DIGEST_SECONDS,
    now,
    onMailQueued: () => mailRelay.wake(),
    logger,
  });
  app.addHook('preClose', async () => {
    await saleDigests.stop();
    await reconciler.stop();
    await sandbox?.stop();
    await mailRelay.stop();
    await mailer.close();
  });

  checkoutRoutes(app, {
    ...checkoutDeps,
    sale: settlement,
    discountCheckoutMinutes: config.DISCOUNT_CHECKOUT_MINUTES,
    freeClaims: {
      confirmMinutes: config.FREE_CLAIM_CONFIRM_MINUTES,
      mailCooldownSeconds: config.FREE_CLAIM_MAIL_COOLDOWN_SECONDS,
      perProductPerHour: config.FREE_CLAIMS_PER_PRODUCT_PER_HOUR,
      perSellerPerHour: config.FREE_CLAIMS_PER_SELLER_PER_HOUR,
      perEmailPerHour: config.FREE_CLAIMS_PER_EMAIL_PER_HOUR,
    },
    secureCookies: publicUrl.startsWith('https:'),
  });
  const discounts = createDiscountService({ pool, now });
  discountRoutes(app, discounts);
  await buyerUpdateRoutes(app, createBuyerUpdatesService({ pool, now }));
  // The charge inbox's group commit on a connection of its own: a provider's answer never queues
  // behind settlement, verify reads or checkouts for the pool's ten (README, issue 31).
  const inboxPool = createPool({
    connectionString: config.DATABASE_URL,
    schema: 'payments',
    max: 1,
  });
  app.addHook('onClose', async () => inboxPool.end());
  await webhookRoutes(app, { ...webhookDeps, providers, inboxPool });
  salesRoutes(app, {
    pool,
    testMode: provider.testMode,
    processorFeeBps: config.PROCESSOR_FEE_BPS,
  });
  paymentStatusRoutes(app, settlement);
  refundRoutes(app, refunds);
  payoutRoutes(app, {
    destinations: {
      pool,
      provider,
      box,
      now,
      onMailQueued: () => mailRelay.wake(),
      holdHours: config.DESTINATION_CHANGE_HOLD_HOURS,
    },
    payouts: payoutDeps,
    reauthMaxAgeSeconds: config.REAUTH_MAX_AGE_SECONDS,
  });
  subscriptionRoutes(app, renewals, sandbox ?? null);
  apiV1MoneyRoutes(app, { refunds, renewals, discounts, payouts: payoutDeps });
  if (sandbox) await sandboxRoutes(app, sandbox);
  return app;
}

/** This process's own URL once it listens (the sandbox posts its webhooks there); PUBLIC_URL before. */
function ownUrl(app: HttpServer, publicUrl: string, path: string): string {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return `${publicUrl}${path}`;
  const host =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  return `http://${host}:${address.port}${path}`;
}
