import type { IncomingHttpHeaders } from 'node:http';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { findPayout } from '../payouts/index.js';
import { findPurchaseByTransaction } from '../sales/index.js';
import { refundsDueNowFor } from '../refunds/index.js';
import { storeProviderEvent } from './provider-events.repository.js';
import type { WebhookNotice } from '../../providers/types.js';
import { recordChargeback, restoreWonDispute, type RefundDeps } from '../refunds/index.js';
import type { SettlerDeps } from './settler.js';
import type { ChargeInbox } from './charge-inbox.js';

export interface WebhookDeps extends SettlerDeps {
  /** For refund and dispute notifications. */
  refunds: RefundDeps;
  /** Told after each group commit of charge notifications (charge-inbox.ts): the settler's cue. */
  settleSoon?: (deliveries: number, storedNew: boolean) => void;
}

/** What one delivery is received with: the provider it came from, and the charges' group commit. */
export interface ReceiveDeps extends WebhookDeps {
  chargeInbox: ChargeInbox;
}

/**
 * `POST /api/webhooks/:provider`: authenticate the raw body, store the event once, answer.
 * A charge is acknowledged as soon as it is stored (`accepted`: an autocommitted `INSERT … ON
 * CONFLICT DO NOTHING` shared with the deliveries that arrived meanwhile — charge-inbox.ts — a
 * duplicate answered from the unique key) and settled
 * right after by the settler (settler.ts), which verifies it with the provider in batches,
 * retries with backoff and survives restarts: the provider's delivery never waits on its own
 * verify API or on our settlement, and its retries of a stored event are duplicates (issues 11, 31).
 */
export async function receiveWebhook(
  deps: ReceiveDeps,
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
  if (!notice.charge) {
    // Kept for the record (stored as ignored): nothing we act on.
    await storeProviderEvent(deps.pool, deps.provider.name, notice, body);
    return { outcome: 'ignored' };
  }
  const created = await deps.chargeInbox.store({
    provider: deps.provider.name,
    notice,
    payload: body,
  });
  return { outcome: created ? 'accepted' : 'duplicate' };
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

/**
 * Refund and chargeback notifications. A refund notice makes the reconciler ask the provider
 * about that transaction's refund now. A dispute notice is only a prompt too (issue 30 item 7:
 * the shared secret alone proves nothing — the sandbox's is published): the provider is asked
 * for its dispute of exactly that transaction, and only its answer acts. Open or lost: access is
 * revoked and the sale reversed (the bank holds or took the money). Won: a sale its chargeback
 * reversed stands again. No dispute at the provider: nothing changes.
 */
async function receiveRefundNotice(
  deps: WebhookDeps,
  notice: WebhookNotice,
  body: unknown,
): Promise<{ outcome: string }> {
  if (notice.dispute) return receiveDispute(deps, notice, notice.dispute, body);
  const { created } = await storeProviderEvent(deps.pool, deps.provider.name, notice, body);
  if (!created) return { outcome: 'duplicate' };
  const due = await refundsDueNowFor(
    deps.pool,
    deps.provider.name,
    notice.refund!.transactionId,
    deps.now(),
  );
  return { outcome: due > 0 ? 'refund_check_scheduled' : 'ignored' };
}

async function receiveDispute(
  deps: WebhookDeps,
  notice: WebhookNotice,
  dispute: { transactionId: string },
  body: unknown,
): Promise<{ outcome: string }> {
  const purchase = await findPurchaseByTransaction(
    deps.pool,
    deps.provider.name,
    dispute.transactionId,
  );
  if (!purchase) {
    const { created } = await storeProviderEvent(deps.pool, deps.provider.name, notice, body);
    return { outcome: created ? 'ignored' : 'duplicate' };
  }
  let confirmed;
  try {
    confirmed = await deps.provider.findDispute(dispute.transactionId);
  } catch (error) {
    // Unknown is not "no dispute": answer non-200 so the provider delivers it again.
    deps.logger.warn(
      { transactionId: dispute.transactionId, err: (error as Error).message },
      'dispute could not be confirmed with the provider; asking for redelivery',
    );
    throw new AppError(
      'dispute_unconfirmed',
      503,
      'The dispute could not be confirmed with the provider yet',
    );
  }
  if (!confirmed) {
    // Not stored: a later genuine notice with the same key must still be confirmed and acted on.
    deps.logger.warn(
      { purchaseId: purchase.id, transactionId: dispute.transactionId },
      'signed dispute notice the provider does not confirm; nothing changed',
    );
    return { outcome: 'dispute_not_confirmed' };
  }
  // Acted on before the notice is stored: both actions are idempotent, so a crash in between
  // leaves a redelivery that acts again harmlessly rather than a stored duplicate that never acted.
  const changed =
    confirmed.status === 'won'
      ? await restoreWonDispute(deps.refunds, purchase, confirmed.disputeId)
      : await recordChargeback(deps.refunds, purchase, confirmed.disputeId);
  const { created } = await storeProviderEvent(deps.pool, deps.provider.name, notice, body);
  if (changed)
    deps.logger.warn(
      {
        purchaseId: purchase.id,
        transactionId: dispute.transactionId,
        disputeId: confirmed.disputeId,
        status: confirmed.status,
      },
      confirmed.status === 'won'
        ? 'dispute won: the sale stands again and access is restored'
        : 'chargeback confirmed by the provider: access revoked and the sale reversed',
    );
  if (changed)
    return { outcome: confirmed.status === 'won' ? 'dispute_won' : 'chargeback_recorded' };
  return { outcome: created ? 'ignored' : 'duplicate' };
}
