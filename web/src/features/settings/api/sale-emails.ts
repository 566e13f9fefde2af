import type { SaleEmailSettings } from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

const saleEmailsQueryKey = ['purchases', 'sale-emails'] as const;

export const saleEmailsQueryOptions = () =>
  queryOptions({
    queryKey: saleEmailsQueryKey,
    queryFn: () => api<SaleEmailSettings>('/api/purchases/sale-emails'),
  });

export const useSaleEmails = () => useQuery(saleEmailsQueryOptions());

/** Turns "You made a sale" e-mails on or off; the answer is the setting as stored. */
export function useSetSaleEmails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (saleEmails: boolean) =>
      api<SaleEmailSettings>('/api/purchases/sale-emails', {
        method: 'PUT',
        body: { saleEmails },
      }),
    // The box follows the click at once; a refusal puts it back.
    onMutate: (saleEmails) => {
      const before = queryClient.getQueryData<SaleEmailSettings>(saleEmailsQueryKey);
      queryClient.setQueryData(saleEmailsQueryKey, { saleEmails });
      return { before };
    },
    onError: (_error, _saleEmails, context) =>
      queryClient.setQueryData(saleEmailsQueryKey, context?.before),
    onSuccess: (settings) => queryClient.setQueryData(saleEmailsQueryKey, settings),
  });
}
