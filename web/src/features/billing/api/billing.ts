import {
  planBillingSchema,
  planCancelResultSchema,
  planChangeResultSchema,
  subscriberFiguresSchema,
  subscriptionListSchema,
  subscriptionViewSchema,
  type BillingInterval,
  type PlanChangeRequest,
} from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { refreshSession } from '@/features/auth';
import { api } from '@/lib/api';

/**
 * Recurring billing at payments: the buyer's subscriptions (`/api/subscriptions*`) and the
 * seller's own plan (`/api/billing/plan*`), parsed with the shared schemas from libs/contracts.
 */
export const billingKeys = {
  all: ['billing'] as const,
  plan: ['billing', 'plan'] as const,
  subscriptions: ['billing', 'subscriptions'] as const,
  figures: ['billing', 'figures'] as const,
};

export const planBillingQuery = queryOptions({
  queryKey: billingKeys.plan,
  queryFn: async () => planBillingSchema.parse(await api('/api/billing/plan')),
});
export const usePlanBilling = (enabled = true) => useQuery({ ...planBillingQuery, enabled });

export const subscriptionsQuery = queryOptions({
  queryKey: billingKeys.subscriptions,
  queryFn: async () => subscriptionListSchema.parse(await api('/api/subscriptions')).subscriptions,
});
export const useSubscriptions = () => useQuery(subscriptionsQuery);

export const subscriberFiguresQuery = queryOptions({
  queryKey: billingKeys.figures,
  queryFn: async () => subscriberFiguresSchema.parse(await api('/api/subscriptions/figures')),
});
export const useSubscriberFigures = () => useQuery(subscriberFiguresQuery);

/** After any change the plan, the subscriptions and the session's plan claim are read again. */
function useRefreshBilling() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: billingKeys.all });
  };
}

/** Buy or change the plan: a checkout to pay (the browser goes there) or a change at period end. */
export function useChangePlan() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: async (request: PlanChangeRequest) =>
      planChangeResultSchema.parse(
        await api('/api/billing/plan/change', { method: 'POST', body: request }),
      ),
    onSuccess: async (result) => {
      if (result.outcome === 'checkout') window.location.assign(result.link);
      else await refresh();
    },
  });
}

export function useCancelPlan() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: async ({ refund }: { refund: boolean }) =>
      planCancelResultSchema.parse(
        await api('/api/billing/plan/cancel', { method: 'POST', body: { refund } }),
      ),
    onSuccess: async (result) => {
      await refresh();
      // A refunded plan ends now: the session's plan claim must follow.
      if (result.refundedMinor > 0) await refreshSession(queryClient);
    },
  });
}

export function useResumePlan() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: async () =>
      subscriptionViewSchema.parse(await api('/api/billing/plan/resume', { method: 'POST' })),
    onSuccess: refresh,
  });
}

export type SubscriptionAction =
  'cancel' | 'resume' | 'sandbox/renew-now' | 'sandbox/fail-next-renewal';

export function useSubscriptionAction() {
  const refresh = useRefreshBilling();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: SubscriptionAction }) =>
      subscriptionViewSchema.parse(
        await api(`/api/subscriptions/${id}/${action}`, { method: 'POST' }),
      ),
    onSuccess: async () => {
      await refresh();
      // A renewal adds a purchase (and may change a plan).
      await queryClient.invalidateQueries({ queryKey: ['purchases'] });
      await refreshSession(queryClient);
    },
  });
}

/** A past-due subscription's "Pay now": the browser goes to the provider's page. */
export function usePayPastDue() {
  return useMutation({
    mutationFn: async (id: string) =>
      z
        .object({ link: z.url() })
        .parse(await api(`/api/subscriptions/${id}/pay`, { method: 'POST' })),
    onSuccess: ({ link }) => window.location.assign(link),
  });
}

export type { BillingInterval };
