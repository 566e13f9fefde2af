import {
  reauthenticationOptionsSchema,
  type ReauthenticateRequest,
  type ReauthenticationMethod,
} from '@lockdrop/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { toAccount } from './get-session';
import { useStoreAccount } from './sign-in';

/**
 * Proving who you are again on this session (identity's `/api/auth/reauthenticate`), asked for
 * when a service answers 403 `reauthentication_required`. Success sets a fresh access cookie.
 */
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

const methodKey = ['auth', 'reauthenticate', 'method'] as const;

export const useReauthenticationMethod = (enabled: boolean) =>
  useQuery({
    queryKey: methodKey,
    queryFn: async (): Promise<ReauthenticationMethod> =>
      reauthenticationOptionsSchema.parse(await api('/api/auth/reauthenticate')).method,
    enabled,
  });

export const useSendReauthenticationCode = () =>
  useMutation({
    mutationFn: () => api<unknown>('/api/auth/reauthenticate/code', { method: 'POST' }),
  });

export function useReauthenticate() {
  const store = useStoreAccount();
  return useMutation({
    mutationFn: async (input: ReauthenticateRequest) =>
      toAccount(await api<unknown>('/api/auth/reauthenticate', { method: 'POST', body: input })),
    onSuccess: store,
  });
}
