import { queryOptions, useQuery } from '@tanstack/react-query';
import { saleListSchema, type SaleView } from '@lockdrop/contracts';
import { api } from '@/lib/api';

/** A sale of GET /api/purchases/sales (payments): only the signed-in seller's own. */
export type Sale = SaleView;

export const getSales = async (limit: number): Promise<Sale[]> =>
  saleListSchema.parse(await api(`/api/purchases/sales?limit=${limit}`)).sales;

export const salesQueryOptions = (limit: number) =>
  queryOptions({ queryKey: ['dashboard', 'sales', limit], queryFn: () => getSales(limit) });

export const useSales = (limit: number) => useQuery(salesQueryOptions(limit));
