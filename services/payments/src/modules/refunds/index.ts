export { refundsDueNowFor } from './refunds.repository.js';
export {
  type RefundDeps,
  reconcileRefunds,
  recordChargeback,
  refundPurchase,
  restoreWonDispute,
} from './refunds.js';
export { refundRoutes } from './refunds.routes.js';
