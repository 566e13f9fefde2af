import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** A sale of GET /api/purchases/sales (payments): only the signed-in seller's own. */
export interface Sale {
  id: string;
  productId: string;
  productTitle: string;
  amountMinor: number;
  currency: string;
  status: 'paid' | 'refunding' | 'refunded';
  paymentReference: string;
  createdAt: string;
  buyerEmail: string;
  feePlatformMinor: number;
  feeProcessorMinor: number;
  sellerEarningsMinor: number;
  refundedAt: string | null;
  /** A charge of a product subscription; `renewal` when not its first payment. */
  subscriptionId: string | null;
  renewal: boolean;
}

export const getSales = (limit: number) =>
  api<{ sales: Sale[] }>(`/api/purchases/sales?limit=${limit}`).then((body) => body.sales);

export const salesQueryOptions = (limit: number) =>
  queryOptions({ queryKey: ['dashboard', 'sales', limit], queryFn: () => getSales(limit) });

export const useSales = (limit: number) => useQuery(salesQueryOptions(limit));
