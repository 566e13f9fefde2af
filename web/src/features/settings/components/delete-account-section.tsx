import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { TextField } from '@/components/ui/text-field';
import { notify } from '@/lib/toast';
import { useDeleteAccount } from '../api/account';
import { SettingsCard } from './settings-card';

export function DeleteAccountSection() {
  const remove = useDeleteAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    if (!password) return setError('Please enter your password to confirm');
    setError(undefined);
    remove.mutate(
      { password },
      {
        onSuccess: () => {
          navigate(paths.home.getHref(), { replace: true });
          queryClient.clear();
          queryClient.setQueryData(['auth', 'session'], null);
          notify.success('Account deleted', 'Your account and its data have been removed.');
        },
        onError: (failure) => notify.error(failure, 'Failed to delete your account'),
      },
    );
  }

  return (
    <SettingsCard
      id="settings-delete"
      title="Delete account"
      tone="danger"
      description="This removes your profile and signs you out everywhere. It cannot be undone."
    >
      {confirming ? (
        <form noValidate onSubmit={onSubmit} aria-label="Delete account" className="space-y-4">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={error}
            autoFocus
          />
          <div className="flex flex-wrap gap-3">
            <Button
              type="submit"
              className="bg-rose-600 hover:bg-rose-500 focus-visible:outline-rose-600"
              disabled={remove.isPending}
            >
              {remove.isPending ? 'Deleting...' : 'Delete my account'}
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="secondary" className="text-rose-700" onClick={() => setConfirming(true)}>
          Delete account...
        </Button>
      )}
    </SettingsCard>
  );
}
