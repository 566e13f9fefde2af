import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ProductDaily } from '@lockdrop/contracts';

export type { DailyPoint } from '@lockdrop/contracts';

/** GET /api/analytics/products/:id/daily: one point per UTC day, oldest first (owner only). */
export const getProductDaily = (productId: string, days: number) =>
  api<ProductDaily>(`/api/analytics/products/${encodeURIComponent(productId)}/daily?days=${days}`);

export const productDailyQueryOptions = (productId: string, days = 30) =>
  queryOptions({
    queryKey: ['dashboard', 'product-daily', productId, days],
    queryFn: () => getProductDaily(productId, days),
  });

export const useProductDaily = (productId: string | null, days = 30) =>
  useQuery({ ...productDailyQueryOptions(productId ?? '', days), enabled: productId !== null });
