import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type { ApiKey, ApiKeyScope } from '@lockdrop/contracts';
export { API_KEY_SCOPES } from '@lockdrop/contracts';

const apiKeysQueryKey = ['auth', 'api-keys'] as const;

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: apiKeysQueryKey,
    queryFn: async () => (await api<ApiKeyList>('/api/auth/api-keys')).apiKeys,
  });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

/** The answer carries the secret, shown once; it is never cached in a query. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyRequest) =>
      api<CreatedApiKey>('/api/auth/api-keys', { method: 'POST', body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      api<void>(`/api/auth/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
