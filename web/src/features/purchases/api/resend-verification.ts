import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';

/** Purchases are matched by verified e-mail: the way out of 'email_not_verified'. */
export const resendVerification = () =>
  api<unknown>('/api/auth/resend-verification', { method: 'POST' });

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: () =>
      notify.success('Verification e-mail sent', 'Open the link in it, then come back here.'),
    onError: (error) => notify.error(error, 'Could not send the verification e-mail'),
  });
}
