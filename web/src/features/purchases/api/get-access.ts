import type { DownloadAccess } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Whether this visitor (signed-in buyer, checkout browser or receipt session) may download. */
export type Access = DownloadAccess;

export const getAccess = (productId: string) =>
  api<Access>(`/api/downloads/access?productId=${encodeURIComponent(productId)}`);

export const accessQueryOptions = (productId: string) =>
  queryOptions({ queryKey: ['access', productId], queryFn: () => getAccess(productId) });

/** Asked once the product's id is known (a readable address names it by its short id). */
export const useAccess = (productId: string) =>
  useQuery({ ...accessQueryOptions(productId), enabled: productId !== '' });
