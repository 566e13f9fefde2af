import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Always 202: the answer never reveals whether the e-mail has an account. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return api('/api/auth/forgot-password', { method: 'POST', body: { email } });
}

export function resetPassword(input: { token: string; password: string }): Promise<unknown> {
  return api('/api/auth/reset-password', { method: 'POST', body: input });
}

/** Without an e-mail, identity resends to the signed-in account's address. */
export function resendVerification(email?: string): Promise<unknown> {
  return api('/api/auth/resend-verification', {
    method: 'POST',
    body: email ? { email } : {},
  });
}

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
