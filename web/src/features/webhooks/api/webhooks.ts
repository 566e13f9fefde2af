import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointMode,
  WebhookEndpointWithSecret,
} from '@lockdrop/contracts';

const endpointsKey = ['webhooks', 'endpoints'] as const;
const deliveriesKey = ['webhooks', 'deliveries'] as const;

export const webhookEndpointsQueryOptions = () =>
  queryOptions({
    queryKey: endpointsKey,
    queryFn: async () =>
      (await api<{ endpoints: WebhookEndpoint[] }>('/api/webhook-endpoints')).endpoints,
  });

/** The delivery log refreshes while something is still being sent. */
export const webhookDeliveriesQueryOptions = () =>
  queryOptions({
    queryKey: deliveriesKey,
    queryFn: async () =>
      (await api<{ deliveries: WebhookDelivery[] }>('/api/webhook-deliveries?limit=50')).deliveries,
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? 2_000 : 10_000,
  });

export const useWebhookEndpoints = () => useQuery(webhookEndpointsQueryOptions());
export const useWebhookDeliveries = () => useQuery(webhookDeliveriesQueryOptions());

function useWebhooksMutation<Input, Output = unknown>(
  mutationFn: (input: Input) => Promise<Output>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: endpointsKey }),
        queryClient.invalidateQueries({ queryKey: deliveriesKey }),
      ]),
  });
}

export const useCreateWebhookEndpoint = () =>
  useWebhooksMutation((input: Omit<WebhookEndpointInput, 'description'>) =>
    api<WebhookEndpointWithSecret>('/api/webhook-endpoints', { method: 'POST', body: input }),
  );

export const useUpdateWebhookEndpoint = () =>
  useWebhooksMutation(({ id, patch }: { id: string; patch: WebhookEndpointPatch }) =>
    api<WebhookEndpoint>(`/api/webhook-endpoints/${id}`, { method: 'PATCH', body: patch }),
  );

export const useDeleteWebhookEndpoint = () =>
  useWebhooksMutation((id: string) => api(`/api/webhook-endpoints/${id}`, { method: 'DELETE' }));

export const useRotateWebhookSecret = () =>
  useWebhooksMutation((id: string) =>
    api<WebhookEndpointWithSecret>(`/api/webhook-endpoints/${id}/rotate-secret`, {
      method: 'POST',
    }),
  );

/** The secret is never in the list: the seller asks for it (a POST, so nothing caches it). */
export const useRevealWebhookSecret = () =>
  useMutation({
    mutationFn: (id: string) =>
      api<WebhookEndpointWithSecret>(`/api/webhook-endpoints/${id}/reveal-secret`, {
        method: 'POST',
      }),
  });

export const useSendTestWebhook = () =>
  useWebhooksMutation((id: string) =>
    api<WebhookDelivery>(`/api/webhook-endpoints/${id}/test`, { method: 'POST' }),
  );

export const useRedeliverWebhook = () =>
  useWebhooksMutation((deliveryId: string) =>
    api<WebhookDelivery>(`/api/webhook-deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
  );
