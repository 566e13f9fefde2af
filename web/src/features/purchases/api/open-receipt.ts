import type { ReceiptSession } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';

export type { ReceiptPurchase } from '@lockdrop/contracts';

/** Opens the account-free download session of a receipt link (sets its cookie). */
export const openReceipt = async (token: string) =>
  (
    await api<ReceiptSession>('/api/downloads/receipt-session', {
      method: 'POST',
      body: { token },
    })
  ).purchase;

export const receiptQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['receipts', token],
    queryFn: () => openReceipt(token),
    // A confirmed free claim's link lands here the moment its purchase is recorded; delivery
    // learns of it through an event a moment later, so an unknown receipt is asked again briefly.
    retry: (failures, error) =>
      error instanceof ApiError && error.code === 'receipt_not_found' && failures < 6,
    retryDelay: 750,
    staleTime: Infinity,
  });

export const useReceipt = (token: string) => useQuery(receiptQueryOptions(token));
