import type { CurrencyList } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Spec §8: the list used when the supported currencies cannot be loaded. */
export const FALLBACK_CURRENCIES = ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD'] as const;

export const getCurrencies = () => api<CurrencyList>('/api/currencies');

export const currenciesQueryOptions = () =>
  queryOptions({ queryKey: ['currencies'], queryFn: getCurrencies, staleTime: 10 * 60_000 });

/** The supported currencies; on a failed load, the fallback list and the error to show. */
export function useCurrencies() {
  const query = useQuery(currenciesQueryOptions());
  return {
    currencies: query.data?.currencies ?? [...FALLBACK_CURRENCIES],
    isPending: query.isPending,
    isError: query.isError,
  };
}
