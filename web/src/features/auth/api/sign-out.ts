import type { SignOutScope } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import { sessionQueryKey } from './get-session';

export type { SignOutScope };

export function signOut(scope: SignOutScope = 'local'): Promise<void> {
  return api<void>('/api/auth/sign-out', { method: 'POST', body: { scope } });
}

/**
 * Ends this session, leaves for the landing page and forgets every cached query, so nothing of
 * the previous account stays on screen. Navigating first keeps route guards from sending the
 * visitor to /login on the way out.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => signOut('local'),
    onSuccess: () => {
      navigate(paths.home.getHref(), { replace: true });
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, null);
    },
    onError: (error) => notify.error(error, 'Failed to sign out'),
  });
}
