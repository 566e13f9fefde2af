/** A purchase as its buyer sees it (services/payments/src/routes/schemas.ts). */
export interface Purchase {
  id: string;
  productId: string;
  productTitle: string;
  fileName: string | null;
  amountMinor: number;
  currency: string;
  status: 'paid' | 'refunding' | 'refunded';
  paymentReference: string;
  createdAt: string;
  testMode: boolean;
  /** A charge of this subscription (the library lists the newest one). */
  subscriptionId: string | null;
  renewal: boolean;
}

/** GET /api/purchases/by-reference: where a checkout stands. */
export interface PaymentResult {
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  txRef: string;
  purchase: Purchase | null;
}
