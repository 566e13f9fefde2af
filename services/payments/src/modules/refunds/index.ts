export { findLiveChargeRefund, refundsDueNowFor } from './refunds.repository.js';
export {
  type RefundDeps,
  reconcileRefunds,
  recordChargeRefund,
  requestChargeRefund,
  recordChargeback,
  refundPurchase,
  restoreWonDispute,
} from './refunds.js';
export { refundRoutes } from './refunds.routes.js';
