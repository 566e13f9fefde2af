import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Identity signs out every other session when the password changes. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      api<void>('/api/auth/password', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'sessions'] }),
  });
}

/** Deletes the account for good; confirmed with the password (or the e-mail for Google-only accounts). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (confirmation: { password?: string; email?: string }) =>
      api<void>('/api/profile', { method: 'DELETE', body: confirmation }),
  });
}
