import { fullNameSchema } from '@lockdrop/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { Avatar, useResendVerification, useSession, useUpdateProfile } from '@/features/auth';
import { notify } from '@/lib/toast';
import { SettingsCard } from './settings-card';

export function ProfileSection() {
  const { user, profile } = useSession();
  const update = useUpdateProfile();
  const resend = useResendVerification();
  const [fullName, setFullName] = useState(profile?.fullName ?? '');
  const [avatarUrl, setAvatarUrl] = useState(profile?.avatarUrl ?? '');
  const [error, setError] = useState<string>();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = fullNameSchema.safeParse(fullName);
    if (!name.success) {
      setError(name.error.issues[0]?.message);
      (event.currentTarget.elements.namedItem('fullName') as HTMLInputElement).focus();
      return;
    }
    setError(undefined);
    update.mutate(
      { fullName: name.data, avatarUrl: avatarUrl.trim() || null },
      {
        onSuccess: () => notify.success('Profile updated'),
        onError: (failure) => notify.error(failure, 'Failed to update your profile'),
      },
    );
  }

  return (
    <SettingsCard
      id="settings-profile"
      title="Profile"
      description="How you appear to buyers and in the app."
    >
      <form noValidate onSubmit={onSubmit} aria-label="Profile" className="space-y-5">
        <div className="flex items-center gap-4">
          <Avatar
            avatarUrl={avatarUrl || null}
            email={user?.email}
            fullName={fullName}
            className="size-14"
          />
          <div className="min-w-0 text-sm">
            <p className="truncate font-medium text-slate-900">{user?.email}</p>
            {user?.emailVerified ? (
              <p className="text-emerald-700">E-mail verified</p>
            ) : (
              <p className="text-amber-700">
                E-mail not verified yet ·{' '}
                <button
                  type="button"
                  className="rounded font-semibold text-indigo-700 underline-offset-2 hover:underline disabled:opacity-60"
                  disabled={resend.isPending}
                  onClick={() =>
                    resend.mutate(undefined, {
                      onSuccess: () =>
                        notify.success(
                          'Verification e-mail sent',
                          'Check your inbox for the link.',
                        ),
                      onError: (failure) => notify.error(failure),
                    })
                  }
                >
                  {resend.isPending ? 'Sending...' : 'Resend link'}
                </button>
              </p>
            )}
          </div>
        </div>
        <TextField
          label="Full name"
          name="fullName"
          autoComplete="name"
          value={fullName}
          error={error}
          onChange={(event) => setFullName(event.target.value)}
        />
        <TextField
          label="Avatar URL"
          name="avatarUrl"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={avatarUrl}
          hint="A link to a square picture. Leave empty to use an image generated from your e-mail."
          onChange={(event) => setAvatarUrl(event.target.value)}
        />
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save profile'}
        </Button>
      </form>
    </SettingsCard>
  );
}
