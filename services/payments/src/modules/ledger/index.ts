export {
  paymentJournal,
  planPaymentJournal,
  planRefundJournal,
  refundJournal,
  reversalJournal,
  sellerTransfer,
} from './journals.js';
export {
  type NewJournal,
  journalLines,
  postJournal,
  postJournals,
  sellerAccountTotals,
} from './ledger.repository.js';
