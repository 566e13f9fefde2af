import type { BuyerUpdatesSubscription } from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';

const pathOf = (token: string) => `/api/buyer-updates/${encodeURIComponent(token)}`;

/** GET /api/buyer-updates/:token (payments): whose update e-mails go where, and whether they do. */
export const getSubscription = (token: string) => api<BuyerUpdatesSubscription>(pathOf(token));

export const subscriptionQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['buyer-updates', token],
    queryFn: () => getSubscription(token),
    // An unknown link stays unknown ('This unsubscribe link is not valid').
    retry: false,
  });

export const useSubscription = (token: string) => useQuery(subscriptionQueryOptions(token));

/** PUT /api/buyer-updates/:token: the page's Unsubscribe and Subscribe again. */
export const setSubscribed = (token: string, subscribed: boolean) =>
  api<BuyerUpdatesSubscription>(pathOf(token), { method: 'PUT', body: { subscribed } });

export function useSetSubscribed(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) => setSubscribed(token, subscribed),
    onSuccess: (answer) =>
      queryClient.setQueryData(subscriptionQueryOptions(token).queryKey, answer),
    onError: (error) => notify.error(error, 'Could not change your e-mail settings'),
  });
}
