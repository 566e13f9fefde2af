import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** The fields of GET /api/products/mine (catalog) the dashboard shows. */
export interface SellerProduct {
  id: string;
  title: string;
  priceMinor: number;
  currency: string;
  priceFormatted: string;
  status: 'draft' | 'published';
  fileName: string;
  createdAt: string;
}

/** The signed-in seller's products, newest first. */
export const getMyProducts = () =>
  api<{ products: SellerProduct[] }>('/api/products/mine').then((body) => body.products);

export const myProductsQueryOptions = () =>
  queryOptions({ queryKey: ['dashboard', 'my-products'], queryFn: getMyProducts });

export const useMyProducts = () => useQuery(myProductsQueryOptions());
