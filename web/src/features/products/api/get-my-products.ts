import type { ProductList } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const getMyProducts = async () => (await api<ProductList>('/api/products/mine')).products;

export const myProductsQueryOptions = () =>
  queryOptions({ queryKey: ['products', 'mine'], queryFn: getMyProducts });

export const useMyProducts = () => useQuery(myProductsQueryOptions());
