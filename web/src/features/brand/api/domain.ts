import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddDomainInput, DomainSettings } from '@lockdrop/contracts';
import { useSession } from '@/features/auth';
import { api } from '@/lib/api';

export const DOMAIN_QUERY_ROOT = ['domain'] as const;

/** Keyed by the session's plan: an upgrade to Business renews the session and unlocks it. */
export const domainQueryOptions = (plan: string | undefined) =>
  queryOptions({
    queryKey: [...DOMAIN_QUERY_ROOT, plan ?? null],
    queryFn: () => api<DomainSettings>('/api/domain'),
  });

export const useDomainSettings = () => useQuery(domainQueryOptions(useSession().user?.plan));

/** Every change answers the new settings; the screen shows them at once. */
function useDomainChange<Input>(request: (input: Input) => Promise<DomainSettings | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAIN_QUERY_ROOT }),
  });
}

export const useAddDomain = () =>
  useDomainChange((input: AddDomainInput) =>
    api<DomainSettings>('/api/domain', { method: 'PUT', body: input }),
  );

export const useVerifyDomain = () =>
  useDomainChange(() => api<DomainSettings>('/api/domain/verify', { method: 'POST' }));

export const useRemoveDomain = () =>
  useDomainChange(() => api<null>('/api/domain', { method: 'DELETE' }));
