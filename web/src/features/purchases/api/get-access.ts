import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Whether this visitor (signed-in buyer, checkout browser or receipt session) may download. */
export interface Access {
  hasAccess: boolean;
  purchaseId?: string;
}

export const getAccess = (productId: string) =>
  api<Access>(`/api/downloads/access?productId=${encodeURIComponent(productId)}`);

export const accessQueryOptions = (productId: string) =>
  queryOptions({ queryKey: ['access', productId], queryFn: () => getAccess(productId) });

export const useAccess = (productId: string) => useQuery(accessQueryOptions(productId));
