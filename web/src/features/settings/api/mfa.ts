import type { MfaEnrollment, MfaStatus } from '@lockdrop/contracts';
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

function useMfaChange(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<unknown>(path, { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}

export const useVerifyMfa = () => useMfaChange('/api/auth/mfa/verify');
export const useUnenrollMfa = () => useMfaChange('/api/auth/mfa/unenroll');
