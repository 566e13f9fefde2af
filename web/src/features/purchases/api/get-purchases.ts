import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { purchaseListSchema } from '@lockdrop/contracts';
import type { Purchase } from '../types';

const listPurchases = async (): Promise<Purchase[]> =>
  purchaseListSchema.parse(await api('/api/purchases')).purchases;

/**
 * The access token states whether the e-mail was verified when it was issued. A buyer who has
 * just verified (in the e-mail's tab) still holds the old one, so one refresh is worth a try.
 */
export async function getPurchases(): Promise<Purchase[]> {
  try {
    return await listPurchases();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'email_not_verified')) throw error;
    await api('/api/auth/refresh', { method: 'POST' }).catch(() => {
      throw error;
    });
    return listPurchases();
  }
}

export const purchasesQueryOptions = () =>
  queryOptions({ queryKey: ['purchases'], queryFn: getPurchases, retry: false });

export const usePurchases = () => useQuery(purchasesQueryOptions());
