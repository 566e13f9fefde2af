import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorePage } from '@lockdrop/contracts';
import { api, ApiError } from '@/lib/api';

export const storeQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: ['stores', handle],
    queryFn: () => api<StorePage>(`/api/stores/${encodeURIComponent(handle)}`),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export const useStore = (handle: string) => useQuery(storeQueryOptions(handle));
