import type { ReceiptSession } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

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
    retry: false,
    staleTime: Infinity,
  });

export const useReceipt = (token: string) => useQuery(receiptQueryOptions(token));
