import { z } from 'zod';
import { currencySchema } from '../shared.js';
import { auditedActionSchema } from './audited-action.js';

const transferRef = {
  payoutId: z.uuid(),
  /** Which payout adapter carried the transfer: sandbox, flutterwave, wise, payoneer. */
  provider: z.string(),
  providerTransferId: z.string(),
};

/**
 * What the BullMQ worker reports. It owns schedules, retries and calls to payout providers;
 * payments owns payouts, balances and the ledger and advances a payout only on these events.
 */
export const workerEvents = {
  /** Daily: each service prunes bookkeeping no redelivery can need any more (libs/bus retention). */
  'retention.due': {
    version: 1,
    schema: z.object({ dueAt: z.iso.datetime({ offset: true }) }),
  },
  /**
   * The subscription clock ticked: payments charges renewals that are due (providers that do
   * not charge on their own), moves unpaid ones to past due, ends those whose grace or
   * cancelled period is over, and sends renewal reminders. Idempotent, so ticks may overlap.
   */
  'subscriptions.due': {
    version: 1,
    schema: z.object({ dueAt: z.iso.datetime({ offset: true }) }),
  },
  /** The custom-domain clock ticked: catalog looks up every domain's DNS records again. */
  'domains.recheck_due': {
    version: 1,
    schema: z.object({ dueAt: z.iso.datetime({ offset: true }) }),
  },
  /** The payout schedule fired: payments creates this run's payouts (once per `runId`). */
  'payout.run_due': {
    version: 1,
    schema: z.object({
      runId: z.string().min(1).max(100),
      dueAt: z.iso.datetime({ offset: true }),
    }),
  },
  /** The provider accepted the transfer (or already had one with this payout's reference). */
  'payout.transfer_submitted': { version: 1, schema: z.object(transferRef) },
  /** The provider's final word on the transfer, read from its API (never from a webhook body). */
  'payout.transfer_completed': {
    version: 1,
    schema: z.object({
      ...transferRef,
      /** null when the provider refused the transfer outright, so none exists. */
      providerTransferId: z.string().nullable(),
      status: z.enum(['successful', 'failed']),
      /** The provider's reason for a failure, in words a seller can act on. */
      reason: z.string().nullable(),
      /**
       * The status the provider's API gave when asked about `providerTransferId` itself. Payments
       * returns money to a payout with a provider transfer id only when this says `failed`.
       */
      providerStatus: z.enum(['successful', 'failed']).optional(),
    }),
  },
  /**
   * The provider's answer left open whether a transfer exists (a duplicate reference no lookup
   * finds, a refusal after an earlier attempt may have gone through): the payout stays in transit,
   * an operator is alerted, and the worker keeps asking the provider until it answers.
   */
  'payout.transfer_unknown': {
    version: 1,
    schema: z.object({
      payoutId: z.uuid(),
      provider: z.string(),
      providerTransferId: z.string().nullable(),
      reason: z.string(),
    }),
  },
  /**
   * A set of exchange rates the rate job fetched (or the shipped seed, with `occurredAt` its
   * as-of time): 1 `from` buys `rate` `to`. Consumers keep, per pair, the newest by `occurredAt`.
   */
  'fx.rates.updated': {
    version: 1,
    schema: z.object({
      source: z.string(),
      rates: z.array(
        z.object({
          from: currencySchema,
          to: currencySchema,
          /** Decimal string: rates are not money and keep their full precision. */
          rate: z.string().regex(/^\d+(\.\d+)?$/),
        }),
      ),
    }),
  },
  /** Webhook endpoint changes (made, changed, deleted, secret rotated or shown), for identity's audit log. */
  'audit.worker_action': { version: 1, schema: auditedActionSchema },
} as const;
