export {
  paymentJournal,
  planPaymentJournal,
  planRefundJournal,
  refundJournal,
  reversalJournal,
  sellerTransfer,
} from './journals.js';
export { journalLines, postJournal, sellerAccountTotals } from './ledger.repository.js';
