import type { ProductFiguresList } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/analytics/products: totals per product of the signed-in seller. */
export type { ProductFigures } from '@lockdrop/contracts';

export const getProductFigures = (days: number) =>
  api<ProductFiguresList>(`/api/analytics/products?days=${days}`).then((body) => body.products);

export const productFiguresQueryOptions = (days = 30) =>
  queryOptions({
    queryKey: ['dashboard', 'product-figures', days],
    queryFn: () => getProductFigures(days),
  });

export const useProductFigures = (days = 30) => useQuery(productFiguresQueryOptions(days));
