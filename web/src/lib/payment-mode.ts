import type { PaymentMode } from '@lockdrop/contracts';
import { DEFAULT_PROCESSOR_FEE_BPS } from '@lockdrop/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api';

/** How checkout on this deployment charges: test or real money, and the processing fee. */
export const paymentModeQueryOptions = queryOptions({
  queryKey: ['payment-mode'],
  queryFn: () => api<PaymentMode>('/api/purchases/payment-mode'),
  staleTime: Infinity,
});

/**
 * The processing fee checkout counts (payments' PROCESSOR_FEE_BPS), for every page that states
 * it. Prerendered pages start from the shipped default and show the deployment's own figure as
 * soon as payments answers.
 */
export function useProcessorFeeBps(): number {
  const mode = useQuery(paymentModeQueryOptions);
  return mode.data?.processorFeeBps ?? DEFAULT_PROCESSOR_FEE_BPS;
}
