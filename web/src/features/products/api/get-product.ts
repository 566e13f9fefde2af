import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import type { ProductDetail } from '../types';

export function getProduct(id: string, currency?: string): Promise<ProductDetail> {
  const query = new URLSearchParams();
  if (currency) query.set('currency', currency);
  if (typeof document !== 'undefined' && document.referrer)
    query.set('referrer', document.referrer.slice(0, 500));
  const search = query.size ? `?${query}` : '';
  return api<ProductDetail>(`/api/products/${encodeURIComponent(id)}${search}`);
}

export const productQueryOptions = (id: string, currency?: string) =>
  queryOptions({
    queryKey: ['products', id, { currency: currency ?? null }],
    queryFn: () => getProduct(id, currency),
    // A missing product stays missing; other failures get the default retries.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    // Switching the display currency keeps the page on screen instead of flashing a loader.
    placeholderData: (previous) => (previous?.id === id ? previous : undefined),
  });

export const useProduct = (id: string, currency?: string) =>
  useQuery(productQueryOptions(id, currency));

/**
 * The product's seller's brand for a page about an earlier purchase (the receipt): read without
 * counting a view (`countView=false`), since nobody is looking at the product page itself.
 */
export const productBrandQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['products', id, { countView: false }],
    queryFn: () => api<ProductDetail>(`/api/products/${encodeURIComponent(id)}?countView=false`),
    select: (product) => product.brand,
    enabled: id !== '',
    retry: false,
    staleTime: 60_000,
  });

export const useProductBrand = (id: string) => useQuery(productBrandQueryOptions(id));
