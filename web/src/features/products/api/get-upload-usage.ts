import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/uploads/usage: this calendar month's uploads against the plan's allowance. */
export interface UploadUsage {
  plan: string;
  used: number;
  /** null: the plan has no monthly limit. */
  limit: number | null;
  resetsAt: string;
}

export const getUploadUsage = () => api<UploadUsage>('/api/uploads/usage');

export const uploadUsageQueryOptions = () =>
  queryOptions({ queryKey: ['uploads', 'usage'], queryFn: getUploadUsage });

export const useUploadUsage = () => useQuery(uploadUsageQueryOptions());
