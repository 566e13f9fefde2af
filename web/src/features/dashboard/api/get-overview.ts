import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '@lockdrop/contracts';
import { api } from '@/lib/api';

/** GET /api/analytics/overview (analytics service): the signed-in seller's figures only. */
export type { Metric, Overview, RevenueFigure } from '@lockdrop/contracts';

export const getOverview = (days: number) => api<Overview>(`/api/analytics/overview?days=${days}`);

export const overviewQueryOptions = (days = 30) =>
  queryOptions({ queryKey: ['dashboard', 'overview', days], queryFn: () => getOverview(days) });

export const useOverview = (days = 30) => useQuery(overviewQueryOptions(days));
