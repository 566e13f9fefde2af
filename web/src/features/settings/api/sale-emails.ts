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
    onSuccess: (settings) => queryClient.setQueryData(saleEmailsQueryKey, settings),
  });
}
