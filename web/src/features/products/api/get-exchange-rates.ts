import type { ExchangeRatesResponse } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/**
 * GET /api/exchange-rates: the stored rates, when the newest were published, and whether that
 * is over a day ago.
 */
export const getExchangeRates = () => api<ExchangeRatesResponse>('/api/exchange-rates');

export const exchangeRatesQueryOptions = () =>
  queryOptions({ queryKey: ['exchange-rates'], queryFn: getExchangeRates, staleTime: 10 * 60_000 });

/** Loaded only while a price is shown in another currency (`enabled`). */
export const useExchangeRates = (enabled: boolean) =>
  useQuery({ ...exchangeRatesQueryOptions(), enabled });
