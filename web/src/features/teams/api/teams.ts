import type {
  AuditLog,
  InviteRequest,
  MemberRole,
  MyStores,
  SessionResponse,
  Team,
} from '@lockdrop/contracts';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { switchedAccount, toAccount } from '@/features/auth';
import { api } from '@/lib/api';

export type { AuditEntry, MemberRole, StoreMember, StoreInvite, Team } from '@lockdrop/contracts';
export const MEMBER_ROLES: readonly MemberRole[] = ['admin', 'editor', 'support', 'accountant'];

const teamKey = (storeId: string) => ['teams', storeId] as const;
const auditKey = (storeId: string, actorId: string) =>
  ['teams', storeId, 'audit', actorId] as const;
const storesKey = ['teams', 'mine'] as const;
const base = (storeId: string) => `/api/auth/stores/${encodeURIComponent(storeId)}`;

export const useMyStores = (enabled = true) =>
  useQuery(
    queryOptions({
      queryKey: storesKey,
      queryFn: async () => (await api<MyStores>('/api/auth/stores')).stores,
      enabled,
    }),
  );

export const useTeam = (storeId: string | null) =>
  useQuery(
    queryOptions({
      queryKey: teamKey(storeId ?? ''),
      queryFn: () => api<Team>(`${base(storeId!)}/members`),
      enabled: storeId !== null,
    }),
  );

export function useInvite(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteRequest) =>
      api<unknown>(`${base(storeId)}/invites`, { method: 'POST', body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey(storeId) }),
  });
}

export function useRevokeInvite(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      api<void>(`${base(storeId)}/invites/${encodeURIComponent(inviteId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey(storeId) }),
  });
}

export function useRemoveMember(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<void>(`${base(storeId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey(storeId) }),
  });
}

/** Switches the session to a store (or, with one's own id, back to one's own account). */
export function useSwitchStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (storeId: string) =>
      api<SessionResponse>(`${base(storeId)}/act`, { method: 'POST', body: {} }),
    onSuccess: (session) => switchedAccount(queryClient, toAccount(session)),
  });
}

export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api<{ storeId: string; storeName: string; role: MemberRole }>('/api/auth/invites/accept', {
        method: 'POST',
        body: { token },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storesKey }),
  });
}

/** Keeps a member who is read-only after a downgrade (the owner's choice of who stays). */
export function useKeepMember(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<void>(`${base(storeId)}/members/${encodeURIComponent(userId)}/keep`, {
        method: 'POST',
        body: {},
      }),
    // The team's key is a prefix of its activity's: both are shown afresh.
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey(storeId) }),
  });
}

/**
 * Hands the store to an admin. The answer is the caller's session as the store's admin from
 * now on, so everything cached for the owner goes.
 */
export function useTransferOwnership(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<SessionResponse>(`${base(storeId)}/owner`, { method: 'POST', body: { userId } }),
    onSuccess: (session) => switchedAccount(queryClient, toAccount(session)),
  });
}

/** The store's activity, newest first, a page at a time; `actorId` '' = everyone's. */
export const useAuditLog = (storeId: string | null, actorId: string) =>
  useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: auditKey(storeId ?? '', actorId),
      queryFn: ({ pageParam }) => {
        const query = new URLSearchParams({ limit: '25' });
        if (actorId) query.set('actorId', actorId);
        if (pageParam) query.set('cursor', pageParam);
        return api<AuditLog>(`${base(storeId!)}/audit?${query}`);
      },
      initialPageParam: '',
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      enabled: storeId !== null,
    }),
  );
