import type { SessionList } from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type { SignedInSession } from '@lockdrop/contracts';

const sessionsQueryKey = ['auth', 'sessions'] as const;

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: async () => (await api<SessionList>('/api/auth/sessions')).sessions,
  });

export const useSessions = () => useQuery(sessionsQueryOptions());

function useSessionsMutation(mutationFn: (sessionId?: string) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

/** Ends every session except this browser's. */
export const useSignOutOthers = () =>
  useSessionsMutation(() =>
    api('/api/auth/sign-out', { method: 'POST', body: { scope: 'others' } }),
  );

export const useRevokeSession = () =>
  useSessionsMutation((sessionId) =>
    api(`/api/auth/sessions/${encodeURIComponent(sessionId ?? '')}`, { method: 'DELETE' }),
  );
