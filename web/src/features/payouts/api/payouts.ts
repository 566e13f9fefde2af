import {
  bankListSchema,
  payoutBalancesSchema,
  payoutDestinationAnswerSchema,
  payoutListSchema,
  savedPayoutDestinationSchema,
  type BankAccount,
  type PayoutDestinationInput,
} from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api';

/**
 * The seller's payouts at payments (`/api/payouts*`). Responses are parsed with the shared
 * schemas from libs/contracts, so the screens and the server agree on one shape.
 */
const payoutsKey = ['payouts'] as const;
export const payoutKeys = {
  all: payoutsKey,
  banks: [...payoutsKey, 'banks'] as const,
  destination: [...payoutsKey, 'destination'] as const,
  balances: [...payoutsKey, 'balances'] as const,
  history: (limit: number) => [...payoutsKey, 'history', limit] as const,
};

export const bankListQuery = queryOptions({
  queryKey: payoutKeys.banks,
  queryFn: async () => bankListSchema.parse(await api('/api/payouts/banks')).banks,
  staleTime: 60 * 60_000,
});
export const useBanks = (enabled = true) => useQuery({ ...bankListQuery, enabled });

export const destinationQuery = queryOptions({
  queryKey: payoutKeys.destination,
  queryFn: async () =>
    payoutDestinationAnswerSchema.parse(await api('/api/payouts/destination')).destination,
});
/** `enabled` false where the session may not read it (a member: the owner's alone). */
export const usePayoutDestination = (enabled = true) => useQuery({ ...destinationQuery, enabled });

export const balancesQuery = queryOptions({
  queryKey: payoutKeys.balances,
  queryFn: async () => payoutBalancesSchema.parse(await api('/api/payouts/balances')),
});

export const payoutHistoryQuery = (limit: number) =>
  queryOptions({
    queryKey: payoutKeys.history(limit),
    queryFn: async () => payoutListSchema.parse(await api(`/api/payouts?limit=${limit}`)).payouts,
  });

/** Balances and history refresh every few seconds while a payout is on its way. */
const IN_FLIGHT_REFRESH_MS = 3_000;

export function usePayoutHistory(limit: number) {
  return useQuery({
    ...payoutHistoryQuery(limit),
    refetchInterval: (query) =>
      query.state.data?.some(
        (payout) => payout.status === 'created' || payout.status === 'submitted',
      )
        ? IN_FLIGHT_REFRESH_MS
        : false,
  });
}

export function usePayoutBalances() {
  return useQuery({
    ...balancesQuery,
    refetchInterval: (query) =>
      query.state.data?.balances.some((balance) => balance.inTransitMinor !== 0)
        ? IN_FLIGHT_REFRESH_MS
        : false,
  });
}

export const resolveAccount = async (account: BankAccount) =>
  z
    .object({ accountName: z.string() })
    .parse(await api('/api/payouts/resolve-account', { method: 'POST', body: account }))
    .accountName;

export const useResolveAccount = () => useMutation({ mutationFn: resolveAccount });

export function useSaveDestination() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PayoutDestinationInput) =>
      savedPayoutDestinationSchema.parse(
        await api('/api/payouts/destination', { method: 'PUT', body: input }),
      ).destination,
    onSuccess: (destination) => {
      queryClient.setQueryData(payoutKeys.destination, destination);
      return queryClient.invalidateQueries({ queryKey: payoutKeys.balances });
    },
  });
}

export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      payoutListSchema.parse(await api('/api/payouts/withdraw', { method: 'POST' })).payouts,
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}

/** For screens that change balances elsewhere (a refund): ask payments for them again. */
export function useRefreshPayouts() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: payoutKeys.all });
}
