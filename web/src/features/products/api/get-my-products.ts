import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Product } from '../types';

export const getMyProducts = async () =>
  (await api<{ products: Product[] }>('/api/products/mine')).products;

export const myProductsQueryOptions = () =>
  queryOptions({ queryKey: ['products', 'mine'], queryFn: getMyProducts });

export const useMyProducts = () => useQuery(myProductsQueryOptions());
