import type { UploadUsage } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/uploads/usage: this calendar month's uploads against the plan's allowance. */
export const getUploadUsage = () => api<UploadUsage>('/api/uploads/usage');

/** The one query key for it: an upload refreshes the create screen and the dashboard alike. */
export const uploadUsageQueryOptions = () =>
  queryOptions({ queryKey: ['uploads', 'usage'], queryFn: getUploadUsage });

export const useUploadUsage = () => useQuery(uploadUsageQueryOptions());
