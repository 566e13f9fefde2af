import type { Migration } from '@lockdrop/db';
import { mailOutboxMigrations } from '@lockdrop/mailer';
import { paymentsSchema } from './0001_payments.js';
import { purchaseTestMode } from './0002_purchase_test_mode.js';
import { providerEventPayloadText } from './0003_provider_event_payload_text.js';
import { payouts } from './0004_payouts.js';
import { refunds } from './0005_refunds.js';
import { subscriptions } from './0006_subscriptions.js';
import { ledgerJournalIndex } from './0007_ledger_journal_index.js';
import { discounts } from './0008_discounts.js';
import { providerEventsPendingIndex } from './0009_provider_events_pending_index.js';
import { buyerUpdates } from './0010_buyer_updates.js';
import { refundEscalation } from './0011_refund_escalation.js';
import { disputes } from './0012_disputes.js';
import { unmatchedRenewals } from './0013_unmatched_renewals.js';
import { payoutOutcomeUnknown } from './0014_payout_outcome_unknown.js';
import { payoutTestMode } from './0015_payout_test_mode.js';
import { ledgerBalancePerTransaction } from './0016_ledger_balance_per_transaction.js';
import { saleEmails } from './0050_sale_emails.js';
import { sellerBrands } from './0041_seller_brands.js';
import { apiV1Money } from './0070_api_v1_money.js';
import { freeClaims } from './0090_free_claims.js';
import { planRefundRecords } from './0100_plan_refund_records.js';
import { pendingCharges } from './0120_pending_charges.js';
import { storeOrigins } from './0140_store_origins.js';
import { ledgerCheckOnce } from './0150_ledger_check_once.js';
import { providerEventsAlwaysDue } from './0160_provider_events_always_due.js';
import { saleDigests } from './0170_sale_digests.js';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  ...mailOutboxMigrations,
  paymentsSchema,
  purchaseTestMode,
  providerEventPayloadText,
  payouts,
  refunds,
  subscriptions,
  ledgerJournalIndex,
  discounts,
  providerEventsPendingIndex,
  buyerUpdates,
  refundEscalation,
  disputes,
  unmatchedRenewals,
  payoutOutcomeUnknown,
  payoutTestMode,
  ledgerBalancePerTransaction,
  saleEmails,
  sellerBrands,
  apiV1Money,
  freeClaims,
  planRefundRecords,
  pendingCharges,
  storeOrigins,
  ledgerCheckOnce,
  providerEventsAlwaysDue,
  saleDigests,
];
