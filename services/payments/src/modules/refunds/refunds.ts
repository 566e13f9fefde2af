import { recordAction, type ActionSource } from '../audit/index.js';
import {
  addChargeRefund,
  endRefundedSubscription,
  type SubscriptionCharge,
  type SubscriptionRules,
} from '../subscriptions/index.js';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@lockdrop/auth';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type CommandRequest } from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { journalLines, planRefundJournal, postJournal, reversalJournal } from '../ledger/index.js';
import { findPurchase, keyOwns, setPurchaseStatus, type Purchase } from '../sales/index.js';
import {
  claimDueRefunds,
  escalateRefund,
  findRefund,
  finishRefund,
  insertRefund,
  markRefundPending,
  refundedTransactionOf,
  scheduleRefundCheck,
  type Refund,
} from './refunds.repository.js';
import {
  ProviderRejectedError,
  type PaymentProvider,
  type ProviderRefund,
} from '../../providers/types.js';
import { refundJournal } from '../ledger/index.js';
import { enqueueMail } from '@lockdrop/mailer';
import { refundEmail } from './refund-emails.js';
import { emailBrand, findShownBrand } from '../read-models/index.js';

export interface RefundDeps {
  pool: Pool;
  /** Asks delivery to stop this purchase's downloads and waits for it (throws when it cannot). */
  suspendAccess: (hold: CommandRequest<'access.suspend_for_refund'>) => Promise<unknown>;
  providers: ReadonlyMap<string, PaymentProvider>;
  refundWindowHours: number;
  /** Whether the provider gives its fee back on a refund (Flutterwave does not). */
  processorFeeRefunded: boolean;
  supportEmails: string[];
  /** Lockdrop's address: a brand's logo in the buyer's e-mail is absolute. */
  publicUrl: string;
  /** A refunded or charged-back charge of a subscription ends it (see reverseSale). */
  subscriptions: SubscriptionRules;
  now: () => Date;
  logger: {
    error(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
}

/** First look at an unanswered refund; the wait doubles per check, capped. */
const FIRST_CHECK_MS = 30_000;
const MAX_CHECK_MS = 6 * 3_600_000;
/**
 * A refund still unresolved this long after we asked needs an operator (ARCHITECTURE §3a:
 * nothing is concluded from silence): it is escalated, never failed, and still asked about.
 */
const ESCALATE_AFTER_MS = 30 * 60_000;

export function isSupport(deps: Pick<RefundDeps, 'supportEmails'>, user: AuthUser): boolean {
  return user.emailVerified && deps.supportEmails.includes(user.email.toLowerCase());
}

/**
 * The seller, or support. An API key (issue 27) acts for its seller only — never with a support
 * account's reach — and only on sales of its own mode (a test key on test sales, a live key on
 * live ones); anything else is "not found" to it.
 */
function mayRefund(deps: RefundDeps, user: AuthUser, purchase: Purchase): boolean {
  if (user.apiKey) return keyOwns(user, purchase);
  return user.id === purchase.sellerId || isSupport(deps, user);
}

const nextCheck = (deps: Pick<RefundDeps, 'now'>, checks: number) =>
  new Date(deps.now().getTime() + Math.min(FIRST_CHECK_MS * 2 ** checks, MAX_CHECK_MS));

/**
 * Seller- or support-initiated refund within the refund window (terms: 24 hours), as a record
 * of its own: requested → pending → succeeded | failed.
 *
 * The refund row and the purchase's `refunding` state commit first (one live refund per
 * purchase, so a double click cannot refund twice), with a check already scheduled: a crash at
 * any later point leaves a refund the reconciler asks the provider about. Delivery then stops
 * every download of the purchase before the provider is asked for the money. Only a definite
 * answer ends the refund: the provider's refusal (money stays, buyer keeps the file) or its
 * confirmation (reversing journal, `purchase.refunded`). A timeout or an outage is not a
 * refusal — the provider may still refund — so access stays cut and the reconciler finds out.
 */
export async function refundPurchase(
  deps: RefundDeps,
  user: AuthUser,
  purchaseId: string,
  correlationId: string,
  source: ActionSource,
): Promise<Purchase> {
  const refundId = randomUUID();
  const purchase = await withTransaction(deps.pool, async (tx) => {
    const found = await findPurchase(tx, purchaseId, { forUpdate: true });
    if (!found || !mayRefund(deps, user, found))
      throw errors.notFound('purchase_not_found', 'Purchase not found');
    if (found.status === 'refunded')
      throw errors.conflict('already_refunded', 'This purchase was already refunded');
    if (found.status === 'refunding')
      throw errors.conflict('refund_in_progress', 'A refund of this purchase is in progress');
    if (found.amountMinor === 0)
      throw errors.conflict(
        'nothing_to_refund',
        'This purchase was free; there is nothing to refund',
      );
    const windowEnds = found.paidAt.getTime() + deps.refundWindowHours * 3_600_000;
    if (deps.now().getTime() > windowEnds) {
      throw errors.conflict(
        'refund_window_closed',
        `Refunds are only possible within ${deps.refundWindowHours} hours of payment`,
      );
    }
    await insertRefund(tx, {
      id: refundId,
      purchaseId: found.id,
      chargeId: null,
      kind: 'refund',
      status: 'requested',
      amountMinor: found.amountMinor,
      currency: found.currency,
      provider: found.provider,
      providerRefundId: null,
      requestedBy: user.id,
      requestedAt: deps.now(),
      nextCheckAt: nextCheck(deps, 0),
      correlationId,
    });
    await setPurchaseStatus(tx, found.id, 'refunding');
    await recordAction(
      tx,
      source,
      {
        storeId: found.sellerId,
        action: 'refund.requested',
        target: found.id,
        details: {
          amountMinor: found.amountMinor,
          currency: found.currency,
          buyerEmail: found.buyerEmail,
        },
      },
      correlationId,
    );
    return found;
  });
  const refund = (await findRefund(deps.pool, refundId))!;

  try {
    await deps.suspendAccess({
      purchaseId: purchase.id,
      productId: purchase.productId,
      sellerId: purchase.sellerId,
      buyerEmail: purchase.buyerEmail,
      refundId,
    });
  } catch (error) {
    deps.logger.error({ err: error, purchaseId }, 'downloads could not be suspended for a refund');
    await settleRefund(deps, refund, { failed: 'downloads could not be stopped' });
    throw new AppError(
      'refund_unavailable',
      503,
      'Downloads of this purchase could not be stopped, so nothing was refunded; please try again',
    );
  }

  const asked = await askProviderForRefund(deps, refund, purchase.providerTransactionId, user.id);
  if (asked === 'refused')
    throw new AppError(
      'refund_failed',
      502,
      'The payment provider could not refund this payment; please try again',
    );
  return (await findPurchase(deps.pool, purchase.id))!;
}

/**
 * Asks the provider for a refund already recorded (so a crash, a timeout or a second click finds
 * the record, never a second request) and applies a definite answer. A refusal ends the refund
 * failed; no answer is not "no" — the refund stays live and `reconcileRefunds` asks the provider
 * until it knows. Shared by sales' refunds and plan charges' refunds (one pattern, one place).
 */
async function askProviderForRefund(
  deps: RefundDeps,
  refund: Refund,
  transactionId: string,
  requestedBy: string | null,
): Promise<'answered' | 'refused' | 'unknown'> {
  const provider = deps.providers.get(refund.provider);
  let answer: ProviderRefund;
  try {
    if (!provider) throw new Error(`provider ${refund.provider} is not configured`);
    answer = await provider.refund(transactionId, refund.amountMinor, refund.currency);
  } catch (error) {
    const context = {
      err: error,
      refundId: refund.id,
      purchaseId: refund.purchaseId,
      chargeId: refund.chargeId,
    };
    if (error instanceof ProviderRejectedError) {
      deps.logger.error(context, 'provider refused the refund');
      await settleRefund(deps, refund, { failed: 'the provider refused the refund' });
      return 'refused';
    }
    deps.logger.warn(context, 'refund outcome unknown; the reconciler will ask the provider');
    return 'unknown';
  }
  await applyProviderRefund(deps, refund, answer, requestedBy);
  return 'answered';
}

/**
 * A charge of a subscription given back (a seller's annual plan cancelled within its refund
 * days, pro rata), recorded in the caller's transaction — under the subscription's row lock,
 * after its own rules — before the provider is asked: one live or succeeded refund per charge
 * (a unique index), with its first check already scheduled, so a timeout, a crash or a second
 * click leaves a record the reconciler settles from the provider's own word. Nothing changes
 * for the plan until the provider confirms (`settleChargeRefund`).
 */
export async function recordChargeRefund(
  tx: Queryable,
  deps: Pick<RefundDeps, 'now'>,
  refund: {
    id: string;
    charge: SubscriptionCharge;
    amountMinor: number;
    requestedBy: string;
    correlationId: string;
  },
): Promise<void> {
  await insertRefund(tx, {
    id: refund.id,
    purchaseId: null,
    chargeId: refund.charge.id,
    kind: 'refund',
    status: 'requested',
    amountMinor: refund.amountMinor,
    currency: refund.charge.currency,
    provider: refund.charge.provider,
    providerRefundId: null,
    requestedBy: refund.requestedBy,
    requestedAt: deps.now(),
    nextCheckAt: nextCheck(deps, 0),
    correlationId: refund.correlationId,
  });
}

/**
 * Asks the provider for a charge refund `recordChargeRefund` committed; returns the refund as it
 * stands after the answer (succeeded, failed, or still requested/pending when the answer was
 * lost or the provider is still working on it).
 */
export async function requestChargeRefund(deps: RefundDeps, refundId: string): Promise<Refund> {
  const refund = (await findRefund(deps.pool, refundId))!;
  const transactionId = await refundedTransactionOf(deps.pool, refund);
  await askProviderForRefund(deps, refund, transactionId!, refund.requestedBy);
  return (await findRefund(deps.pool, refundId))!;
}

/** Moves a refund on from what the provider reported about it. */
async function applyProviderRefund(
  deps: RefundDeps,
  refund: Refund,
  answer: ProviderRefund,
  refundedBy: string | null,
): Promise<void> {
  if (answer.status === 'succeeded') {
    await settleRefund(deps, refund, {
      succeeded: answer.providerRefundId,
      refundedBy,
    });
  } else if (answer.status === 'failed') {
    await settleRefund(deps, refund, {
      failed: answer.failureReason ?? 'the provider could not refund the payment',
      providerRefundId: answer.providerRefundId,
    });
  } else {
    await markRefundPending(
      deps.pool,
      refund.id,
      answer.providerRefundId,
      nextCheck(deps, refund.checks),
    );
  }
}

type Settlement =
  { succeeded: string; refundedBy: string | null } | { failed: string; providerRefundId?: string };

/**
 * Ends a refund in one transaction under the purchase's lock. Succeeded: the reversing journal
 * (from wherever the seller's earnings now sit), the purchase refunded, `purchase.refunded`.
 * Failed: the purchase is paid again and `purchase.refund_failed` gives the buyer the file back.
 * A refund already ended is left alone, so a late or repeated answer changes nothing.
 */
async function settleRefund(deps: RefundDeps, refund: Refund, outcome: Settlement): Promise<void> {
  if (refund.chargeId) return settleChargeRefund(deps, refund, refund.chargeId, outcome);
  await withTransaction(deps.pool, async (tx) => {
    const purchase = await findPurchase(tx, refund.purchaseId!, { forUpdate: true });
    const current = await findRefund(tx, refund.id, { forUpdate: true });
    if (!purchase || !current || current.status === 'succeeded' || current.status === 'failed')
      return;
    const at = deps.now();
    if ('succeeded' in outcome) {
      await finishRefund(tx, refund.id, {
        status: 'succeeded',
        providerRefundId: outcome.succeeded,
        reason: null,
        at,
      });
      await reverseSale(tx, deps, purchase, {
        at,
        reference: outcome.succeeded,
        refundedBy: outcome.refundedBy,
        correlationId: refund.correlationId,
        reason: 'refund',
      });
      // In the transaction that ends the refund: a repeated answer finds it ended, so one e-mail.
      await enqueueMail(
        tx,
        refundEmail({
          to: purchase.buyerEmail,
          productTitle: purchase.productTitle,
          amountMinor: purchase.amountMinor,
          currency: purchase.currency,
          txRef: purchase.txRef,
          testMode: purchase.testMode,
          brand: emailBrand(await findShownBrand(tx, purchase.sellerId), deps.publicUrl),
        }),
      );
      return;
    }
    await finishRefund(tx, refund.id, {
      status: 'failed',
      providerRefundId: outcome.providerRefundId ?? null,
      reason: outcome.failed,
      at,
    });
    if (purchase.status !== 'refunding') return;
    await setPurchaseStatus(tx, purchase.id, 'paid');
    await enqueueEvent(
      tx,
      createEvent(
        'purchase.refund_failed',
        {
          purchaseId: purchase.id,
          productId: purchase.productId,
          sellerId: purchase.sellerId,
          buyerEmail: purchase.buyerEmail,
          refundId: refund.id,
          reason: outcome.failed,
        },
        { correlationId: refund.correlationId },
      ),
    );
  });
}

/**
 * Ends a charge's refund under the refund's lock. Succeeded: the charge records what came back,
 * the `plan_refund` journal, and the subscription ends now (a plan falls back to Free). Failed:
 * nothing else changes — the plan was never ended for a refund the provider did not make. A
 * refund already ended is left alone, so a late or repeated answer changes nothing.
 */
async function settleChargeRefund(
  deps: RefundDeps,
  refund: Refund,
  chargeId: string,
  outcome: Settlement,
): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const current = await findRefund(tx, refund.id, { forUpdate: true });
    if (!current || current.status === 'succeeded' || current.status === 'failed') return;
    const at = deps.now();
    if (!('succeeded' in outcome)) {
      await finishRefund(tx, refund.id, {
        status: 'failed',
        providerRefundId: outcome.providerRefundId ?? null,
        reason: outcome.failed,
        at,
      });
      return;
    }
    await finishRefund(tx, refund.id, {
      status: 'succeeded',
      providerRefundId: outcome.succeeded,
      reason: null,
      at,
    });
    await addChargeRefund(tx, chargeId, current.amountMinor);
    await postJournal(
      tx,
      { chargeId },
      'plan_refund',
      current.currency,
      planRefundJournal(current.amountMinor),
    );
    const { rows } = await tx.query<{ subscriptionId: string }>(
      'SELECT subscription_id AS "subscriptionId" FROM subscription_charges WHERE id = $1',
      [chargeId],
    );
    await endRefundedSubscription(tx, deps, rows[0]!.subscriptionId, at);
  });
}

/** The money went back to the buyer: reversing journal, purchase refunded, access revoked. */
async function reverseSale(
  tx: Queryable,
  deps: Pick<RefundDeps, 'processorFeeRefunded' | 'providers' | 'subscriptions' | 'logger'>,
  purchase: Purchase,
  refund: {
    at: Date;
    reference: string;
    refundedBy: string | null;
    correlationId: string;
    reason: 'refund' | 'chargeback';
  },
): Promise<void> {
  const payment = await journalLines(tx, purchase.id, 'payment');
  const journal = refundJournal(payment, {
    processorFeeReturned: deps.processorFeeRefunded,
    // Once released, the earnings sit in the seller's available balance: the refund comes
    // out of it (below zero if already paid out, recovered from the next payouts).
    sellerAccount: purchase.earningsReleasedAt ? 'seller_available' : 'seller_earnings',
  });
  await postJournal(tx, { purchaseId: purchase.id }, 'refund', purchase.currency, journal);
  await setPurchaseStatus(tx, purchase.id, 'refunded', {
    refundedAt: refund.at,
    reference: refund.reference,
    refundedBy: refund.refundedBy,
  });
  await enqueueEvent(
    tx,
    createEvent(
      'purchase.refunded',
      {
        purchaseId: purchase.id,
        productId: purchase.productId,
        sellerId: purchase.sellerId,
        buyerEmail: purchase.buyerEmail,
        amountMinor: purchase.amountMinor,
        currency: purchase.currency,
        refundedAt: refund.at.toISOString(),
        txRef: purchase.txRef,
        fileId: purchase.fileId,
        reason: refund.reason,
        testMode: purchase.testMode,
      },
      { correlationId: refund.correlationId },
    ),
  );
  // A subscription's charges share one access: the money of one of them back means the
  // subscription ends, or the older charges would keep the file open.
  if (purchase.subscriptionId) {
    await endRefundedSubscription(tx, deps, purchase.subscriptionId, refund.at);
  }
}

/**
 * The reconciler's pass over refunds the provider has not settled: asks the provider about this
 * transaction's refund (by the refund's id when known, else every page of its refunds matched on
 * the transaction exactly) and applies its answer. Only the provider's word ends a refund: no
 * record found is an unknown — the refund stays live with access held, is asked about again with
 * backoff, and past `ESCALATE_AFTER_MS` is escalated to an operator (logged, listed, on /metrics).
 */
export async function reconcileRefunds(deps: RefundDeps, batch: number): Promise<void> {
  for (const refund of await claimDueRefunds(deps.pool, deps.now(), batch, 120)) {
    // A sale's or a plan charge's: the provider is asked about that transaction either way.
    const transactionId = await refundedTransactionOf(deps.pool, refund);
    const provider = deps.providers.get(refund.provider);
    if (!transactionId || !provider) continue;
    let answer: ProviderRefund | null = null;
    let unknown: string;
    try {
      answer = await provider.findRefund(
        transactionId,
        refund.providerRefundId,
        refund.requestedAt,
      );
      unknown = 'the provider has no record of the refund yet';
    } catch (error) {
      unknown = `refund check failed: ${(error as Error).message}`;
    }
    // A pending answer is the provider's word that it is under way; applyProviderRefund keeps
    // asking (with the same backoff) until it completes or fails.
    if (answer) {
      await applyProviderRefund(deps, refund, answer, refund.requestedBy);
      if (answer.status !== 'pending') continue;
    } else {
      await scheduleRefundCheck(deps.pool, refund.id, nextCheck(deps, refund.checks), deps.now());
    }
    if (deps.now().getTime() - refund.requestedAt.getTime() <= ESCALATE_AFTER_MS) continue;
    if (await escalateRefund(deps.pool, refund.id, deps.now())) {
      deps.logger.error(
        {
          refundId: refund.id,
          purchaseId: refund.purchaseId,
          chargeId: refund.chargeId,
          transactionId,
          reason: answer ? 'the provider still reports the refund pending' : unknown,
        },
        'refund unresolved by the provider; access stays held until it answers — needs an operator',
      );
    }
  }
}

/**
 * A chargeback (the buyer's bank took the money back): access is revoked and the sale reversed
 * at once, as a refund record of kind `chargeback`. A sale already refunded changes nothing.
 */
export async function recordChargeback(
  deps: RefundDeps,
  purchase: Purchase,
  disputeReference: string,
): Promise<boolean> {
  return withTransaction(deps.pool, async (tx) => {
    const locked = await findPurchase(tx, purchase.id, { forUpdate: true });
    if (!locked || locked.status === 'refunded') return false;
    const at = deps.now();
    // A refund under way is overtaken: the money is already gone through the bank.
    await tx.query(
      `UPDATE refunds SET status = 'failed', failure_reason = 'overtaken by a chargeback', completed_at = $2,
         next_check_at = NULL WHERE purchase_id = $1 AND status IN ('requested', 'pending')`,
      [locked.id, at],
    );
    const id = randomUUID();
    await insertRefund(tx, {
      id,
      purchaseId: locked.id,
      chargeId: null,
      kind: 'chargeback',
      status: 'succeeded',
      amountMinor: locked.amountMinor,
      currency: locked.currency,
      provider: locked.provider,
      providerRefundId: disputeReference,
      requestedBy: null,
      requestedAt: at,
      nextCheckAt: null,
      correlationId: id,
    });
    await reverseSale(tx, deps, locked, {
      at,
      reference: disputeReference,
      refundedBy: null,
      correlationId: id,
      reason: 'chargeback',
    });
    return true;
  });
}

/**
 * A dispute the provider reports won by the seller: a sale its chargeback reversed stands again.
 * Under the purchase's lock: the chargeback refund becomes `reversed`, a `dispute_won` journal
 * undoes the reversing journal line for line (the seller's money back where it was taken from),
 * the purchase is `paid` again and `purchase.reinstated` gives the buyer access back. A purchase
 * not reversed by a chargeback changes nothing, so a repeat is harmless.
 */
export async function restoreWonDispute(
  deps: RefundDeps,
  purchase: Purchase,
  disputeReference: string,
): Promise<boolean> {
  return withTransaction(deps.pool, async (tx) => {
    const locked = await findPurchase(tx, purchase.id, { forUpdate: true });
    if (!locked || locked.status !== 'refunded') return false;
    const { rows } = await tx.query<{ id: string; correlation_id: string }>(
      `UPDATE refunds SET status = 'reversed'
       WHERE purchase_id = $1 AND kind = 'chargeback' AND status = 'succeeded'
       RETURNING id, correlation_id`,
      [locked.id],
    );
    const chargeback = rows[0];
    if (!chargeback) return false;
    const at = deps.now();
    const reversed = await journalLines(tx, locked.id, 'refund');
    await postJournal(
      tx,
      { purchaseId: locked.id },
      'dispute_won',
      locked.currency,
      reversalJournal(reversed),
    );
    await setPurchaseStatus(tx, locked.id, 'paid');
    await enqueueEvent(
      tx,
      createEvent(
        'purchase.reinstated',
        {
          purchaseId: locked.id,
          productId: locked.productId,
          sellerId: locked.sellerId,
          buyerEmail: locked.buyerEmail,
          amountMinor: locked.amountMinor,
          currency: locked.currency,
          reinstatedAt: at.toISOString(),
          reason: 'dispute_won',
          disputeId: disputeReference,
          txRef: locked.txRef,
          fileId: locked.fileId,
        },
        { correlationId: chargeback.correlation_id },
      ),
    );
    return true;
  });
}
