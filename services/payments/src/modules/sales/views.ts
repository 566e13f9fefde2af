import type { PurchaseView, SaleView } from '@lockdrop/contracts';
import type { Purchase } from './purchases.repository.js';

// The shapes are libs/contracts' (the web reads the same ones); these map rows onto them.
export const toPurchaseView = (purchase: Purchase): PurchaseView => ({
  id: purchase.id,
  productId: purchase.productId,
  productTitle: purchase.productTitle,
  fileName: purchase.fileName,
  amountMinor: purchase.amountMinor,
  currency: purchase.currency,
  status: purchase.status,
  paymentReference: purchase.txRef,
  createdAt: purchase.paidAt.toISOString(),
  testMode: purchase.testMode,
  subscriptionId: purchase.subscriptionId,
  renewal: purchase.renewal,
  discount: purchase.discountCode
    ? { code: purchase.discountCode, amountOffMinor: purchase.discountMinor }
    : null,
});

export const toSaleView = (purchase: Purchase): SaleView => ({
  ...toPurchaseView(purchase),
  buyerEmail: purchase.buyerEmail,
  feePlatformMinor: purchase.feePlatformMinor,
  feeProcessorMinor: purchase.feeProcessorMinor,
  sellerEarningsMinor: purchase.sellerEarningsMinor,
  refundedAt: purchase.refundedAt?.toISOString() ?? null,
});
