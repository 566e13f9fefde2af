import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { paymentResultSchema, type PaymentResult } from '@lockdrop/contracts';

const POLL_MS = 2_000;
/** After this long a still-pending payment is left to the receipt e-mail. */
const POLL_FOR_MS = 3 * 60_000;

export const getPayment = async (txRef: string): Promise<PaymentResult> =>
  paymentResultSchema.parse(
    await api(`/api/purchases/by-reference?tx_ref=${encodeURIComponent(txRef)}`),
  );

export const paymentQueryOptions = (txRef: string) =>
  queryOptions({
    queryKey: ['payments', txRef],
    queryFn: () => getPayment(txRef),
    retry: false,
    // The provider's webhook may land after the buyer is back: ask again while pending.
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' && query.state.dataUpdateCount < POLL_FOR_MS / POLL_MS
        ? POLL_MS
        : false,
  });

export const usePayment = (txRef: string | null) =>
  useQuery({ ...paymentQueryOptions(txRef ?? ''), enabled: txRef !== null });
