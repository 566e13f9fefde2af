import type { CheckoutQuote, CheckoutQuoteRequest } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';

/**
 * POST /api/checkout/quote (payments, anyone): what checkout will charge with this code. A code
 * that cannot be used is a 400 whose message says why in words.
 */
export const getQuote = (request: CheckoutQuoteRequest) =>
  api<CheckoutQuote>('/api/checkout/quote', { method: 'POST', body: request });

export const quoteQueryOptions = (request: CheckoutQuoteRequest) =>
  queryOptions({
    queryKey: ['checkout', 'quote', request],
    queryFn: () => getQuote(request),
    // A refused code stays refused; other failures get the default retries.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    staleTime: 30_000,
  });

export const useQuote = (request: CheckoutQuoteRequest, enabled: boolean) =>
  useQuery({ ...quoteQueryOptions(request), enabled });
