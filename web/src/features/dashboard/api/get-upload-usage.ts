import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/uploads/usage (delivery): this calendar month's uploads against the plan. */
export interface UploadUsage {
  plan: string;
  used: number;
  /** null: no monthly limit. */
  limit: number | null;
  resetsAt: string;
}

export const uploadUsageQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard', 'upload-usage'],
    queryFn: () => api<UploadUsage>('/api/uploads/usage'),
  });

export const useUploadUsage = () => useQuery(uploadUsageQueryOptions());
