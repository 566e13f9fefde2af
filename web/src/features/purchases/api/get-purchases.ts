import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Purchase } from '../types';

export const getPurchases = async () =>
  (await api<{ purchases: Purchase[] }>('/api/purchases')).purchases;

export const purchasesQueryOptions = () =>
  queryOptions({ queryKey: ['purchases'], queryFn: getPurchases, retry: false });

export const usePurchases = () => useQuery(purchasesQueryOptions());
