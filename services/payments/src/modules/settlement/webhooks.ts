import type { IncomingHttpHeaders } from 'node:http';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { findPayout } from '../payouts/index.js';
import { findPurchaseByTransaction } from '../sales/index.js';
import { refundsDueNowFor } from '../refunds/index.js';
import {
  markEventProcessed,
  PROVIDER_EVENT_MAX_ATTEMPTS,
  scheduleEventRetry,
  storeProviderEvent,
  type ProviderEvent,
} from './provider-events.repository.js';
import type { WebhookNotice } from '../../providers/types.js';
import { recordChargeback, type RefundDeps } from '../refunds/index.js';
import { settleTransaction, type SettlementDeps } from './settlement.js';

export interface WebhookDeps extends SettlementDeps {
  /** First retry delay; doubles per attempt up to 30 minutes. */
  retryBaseMs: number;
  logger: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
  /** Told when a stored event used its last attempt (counted on /metrics). */
  onEventExhausted?: () => void;
  /** For refund and dispute notifications. */
  refunds: RefundDeps;
  /** Told when a charge notification was stored: the event drain settles it now. */
  settleSoon?: () => void;
}

const MAX_RETRY_DELAY_MS = 30 * 60 * 1000;

/** 'done' when the event reached a final outcome; otherwise it is kept for a later attempt. */
export type ChargeProcessing = 'done' | 'parked' | 'retry';

/**
 * Verifies a stored charge notification with the provider and settles it. A checkout not
 * (yet) visible parks the event; a provider that cannot answer schedules a retry. Either way
 * the event stays in the store and the reconciler tries again — nothing is dropped.
 */
export async function processChargeEvent(
  deps: WebhookDeps,
  event: ProviderEvent,
): Promise<ChargeProcessing> {
  const later = (status: 'parked' | 'retry', reason: string) => {
    if (event.attempts + 1 >= PROVIDER_EVENT_MAX_ATTEMPTS) {
      // No more automatic attempts: a paid buyer may be waiting for a file. Say so loudly.
      deps.onEventExhausted?.();
      deps.logger.error(
        { eventId: event.id, provider: event.provider, txRef: event.txRef, reason },
        'provider event gave up after its last attempt; needs an operator',
      );
    }
    const delay = Math.min(MAX_RETRY_DELAY_MS, deps.retryBaseMs * 2 ** event.attempts);
    return scheduleEventRetry(
      deps.pool,
      event.id,
      status,
      reason,
      new Date(deps.now().getTime() + delay),
    );
  };
  let verified;
  try {
    verified = await deps.provider.verifyTransaction(event.transactionId!);
  } catch (error) {
    deps.logger.warn(
      { eventId: event.id, err: (error as Error).message },
      'provider verify failed; will retry',
    );
    await later('retry', (error as Error).message);
    return 'retry';
  }
  if (!verified) {
    await markEventProcessed(deps.pool, event.id, 'unknown_transaction', deps.now());
    return 'done';
  }
  const outcome = await settleTransaction(deps, event.txRef!, verified, event.id);
  if (outcome === 'checkout_missing') {
    await later('parked', `no checkout with tx_ref ${event.txRef} yet`);
    return 'parked';
  }
  return 'done';
}

/**
 * `POST /api/webhooks/:provider`: authenticate the raw body, store the event once, answer.
 * A charge is acknowledged as soon as it is stored (`accepted`) and settled right after by the
 * event drain (reconciler.ts), which verifies it with the provider, retries with backoff
 * and survives restarts: the provider's delivery never waits on its own verify API or on our
 * settlement, and its retries of a stored event are duplicates (issue 11).
 */
export async function receiveWebhook(
  deps: WebhookDeps,
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
): Promise<{ outcome: string }> {
  if (!deps.provider.authenticateWebhook(rawBody, headers)) {
    deps.logger.warn(
      { provider: deps.provider.name },
      'webhook with a bad or missing signature rejected',
    );
    throw new AppError('invalid_signature', 401, 'Webhook signature is not valid');
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw errors.badRequest('invalid_body', 'Request body is not valid JSON');
  }
  const notice = deps.provider.parseWebhook(body);
  if (notice.transfer) return reportTransfer(deps, notice, notice.transfer.reference, body);
  if (notice.refund || notice.dispute) return receiveRefundNotice(deps, notice, body);
  const { event, created } = await storeProviderEvent(
    deps.pool,
    deps.provider.name,
    notice,
    body,
    deps.now(),
  );
  if (event.status === 'ignored') return { outcome: 'ignored' };
  if (!created) return { outcome: 'duplicate' };
  deps.settleSoon?.();
  return { outcome: 'accepted' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A payout transfer changed state at the provider. The body is not trusted as the outcome: the
 * event is stored and the worker is asked (`payout.transfer_reported`) to fetch the transfer
 * from the provider's API now rather than at its next poll.
 */
async function reportTransfer(
  deps: WebhookDeps,
  notice: WebhookNotice,
  reference: string,
  body: unknown,
): Promise<{ outcome: string }> {
  return withTransaction(deps.pool, async (tx) => {
    const { created } = await storeProviderEvent(tx, deps.provider.name, notice, body);
    if (!created) return { outcome: 'duplicate' };
    if (!UUID.test(reference) || !(await findPayout(tx, reference))) return { outcome: 'ignored' };
    await enqueueEvent(
      tx,
      createEvent(
        'payout.transfer_reported',
        { payoutId: reference, provider: deps.provider.name },
        { correlationId: reference },
      ),
    );
    return { outcome: 'transfer_reported' };
  });
}

/** Dispute outcomes in the seller's favour: the money stays, nothing is reversed [?]. */
const DISPUTE_WON = new Set(['won', 'declined', 'resolved', 'reversed']);

/**
 * Refund and chargeback notifications. A refund notice makes the reconciler ask the provider
 * about that transaction's refund now. A dispute of one of our purchases (matched by the
 * provider's transaction id, which we verified when it was paid) revokes access and reverses
 * the sale at once, as the bank already took the money back.
 */
async function receiveRefundNotice(
  deps: WebhookDeps,
  notice: WebhookNotice,
  body: unknown,
): Promise<{ outcome: string }> {
  const { created } = await storeProviderEvent(deps.pool, deps.provider.name, notice, body);
  if (!created) return { outcome: 'duplicate' };
  if (notice.refund) {
    const due = await refundsDueNowFor(
      deps.pool,
      deps.provider.name,
      notice.refund.transactionId,
      deps.now(),
    );
    return { outcome: due > 0 ? 'refund_check_scheduled' : 'ignored' };
  }
  const dispute = notice.dispute!;
  if (DISPUTE_WON.has(dispute.status.toLowerCase())) return { outcome: 'ignored' };
  const purchase = await findPurchaseByTransaction(
    deps.pool,
    deps.provider.name,
    dispute.transactionId,
  );
  if (!purchase) return { outcome: 'ignored' };
  const reversed = await recordChargeback(deps.refunds, purchase, notice.eventKey);
  deps.logger.warn(
    { purchaseId: purchase.id, transactionId: dispute.transactionId },
    'chargeback: access revoked and the sale reversed',
  );
  return { outcome: reversed ? 'chargeback_recorded' : 'ignored' };
}
