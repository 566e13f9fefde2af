import { queryOptions, useQuery } from '@tanstack/react-query';
import { saleViewSchema, type SaleView } from '@lockdrop/contracts';
import { z } from 'zod';
import { api } from '@/lib/api';

/** A sale of GET /api/purchases/sales (payments): only the signed-in seller's own. */
export type Sale = SaleView;

const salesResponse = z.object({ sales: z.array(saleViewSchema) });

export const getSales = async (limit: number): Promise<Sale[]> =>
  salesResponse.parse(await api(`/api/purchases/sales?limit=${limit}`)).sales;

export const salesQueryOptions = (limit: number) =>
  queryOptions({ queryKey: ['dashboard', 'sales', limit], queryFn: () => getSales(limit) });

export const useSales = (limit: number) => useQuery(salesQueryOptions(limit));
