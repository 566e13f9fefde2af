import type { ProfileChanges } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sessionQueryKey, type Account, type Profile } from './get-session';

export type { ProfileChanges };

/** PATCH /api/profile; the plan is not here — only billing changes it. */
export function updateProfile(changes: ProfileChanges): Promise<Profile> {
  return api<Profile>('/api/profile', { method: 'PATCH', body: changes });
}

/** Saves profile changes and shows them everywhere at once (avatar menu, settings, dashboard). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) =>
      queryClient.setQueryData<Account | null>(sessionQueryKey, (account) =>
        account ? { ...account, profile, user: { ...account.user, plan: profile.plan } } : account,
      ),
  });
}
