export {
  type BillingInterval,
  type Checkout,
  type CheckoutStatus,
  type NewCheckout,
  type PlanCheckout,
  type ProductCheckout,
  claimVerification,
  countRecentCheckouts,
  dueUnconfirmedCheckouts,
  findCheckoutByTxRef,
  findOpenDiscountCheckout,
  findOpenRenewalCheckout,
  insertCheckout,
  lockCheckoutToSettle,
  lockCheckoutsToSettle,
  setCheckoutStatus,
} from './checkouts.repository.js';
export {
  type Purchase,
  findPurchase,
  findPurchaseByCheckout,
  findPurchaseByTransaction,
  setPurchaseStatus,
} from './purchases.repository.js';
export {
  type FreeClaimProof,
  type PendingFreeClaim,
  confirmFreeClaim,
  confirmedPurchase,
  countRecentFreeClaims,
  findPendingFreeClaim,
  hasConfirmedPurchase,
  insertFreeClaim,
  insertFreeClaimLink,
  lockFreeClaimByLink,
} from './free-claims.repository.js';
export { keyMode, keyOwns } from './key-access.js';
export { listSellerSalesPage, type SalesPageFilter } from './purchases.repository.js';
export { TEST_PAYMENT_NOTICE } from './receipts.js';
export {
  loadSellersForSales,
  newSaleWrites,
  recordSale,
  writeSales,
  type SaleDeps,
  type SaleWrites,
} from './record-sale.js';
export { salesRoutes } from './sales.routes.js';
export { saleDigestEmail, sendDueSaleDigests, startSaleDigests } from './sale-digests.js';
export { toPurchaseView, toSaleView } from './views.js';
