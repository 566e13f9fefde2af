import type { MfaEnrollment, MfaRecoveryCodes, MfaStatus, MfaVerified } from '@lockdrop/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

const mfaQueryKey = ['auth', 'mfa'] as const;

export type { MfaEnrollment };

export const mfaQueryOptions = () =>
  queryOptions({
    queryKey: mfaQueryKey,
    queryFn: () => api<MfaStatus>('/api/auth/mfa'),
  });

export const useMfaStatus = () => useQuery(mfaQueryOptions());

export const useEnrollMfa = () =>
  useMutation({
    mutationFn: () => api<MfaEnrollment>('/api/auth/mfa/enroll', { method: 'POST' }),
  });

function useMfaChange<Answer>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<Answer>(path, { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}

/** Turns MFA on; the answer holds the ten recovery codes, shown this once. */
export const useVerifyMfa = () => useMfaChange<MfaVerified>('/api/auth/mfa/verify');
export const useUnenrollMfa = () => useMfaChange<unknown>('/api/auth/mfa/unenroll');

/** A new set of recovery codes (the old set stops working); may answer 403 reauthentication_required. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<MfaRecoveryCodes>('/api/auth/mfa/recovery-codes', { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}
