import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/analytics/overview (analytics service): the signed-in seller's figures only. */
export interface Metric {
  value: number;
  previous: number;
  /** Percent; null when the previous period was zero. */
  changePercent: number | null;
}

export interface RevenueFigure {
  currency: string;
  grossMinor: number;
  earningsMinor: number;
  refundedMinor: number;
  /** Earnings of sales paid in the period minus earnings reversed by refunds in it. */
  netMinor: number;
}

export interface Overview {
  days: number;
  from: string;
  to: string;
  revenue: (RevenueFigure & { previousNetMinor: number; changePercent: number | null })[];
  views: Metric;
  uniqueVisitors: Metric;
  checkoutsStarted: Metric;
  sales: Metric;
  refunds: Metric;
  downloads: Metric;
  unlockRate: { value: number | null; previous: number | null; changePercent: number | null };
}

export const getOverview = (days: number) => api<Overview>(`/api/analytics/overview?days=${days}`);

export const overviewQueryOptions = (days = 30) =>
  queryOptions({ queryKey: ['dashboard', 'overview', days], queryFn: () => getOverview(days) });

export const useOverview = (days = 30) => useQuery(overviewQueryOptions(days));
