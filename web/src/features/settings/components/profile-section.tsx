import { fullNameSchema, type UploadedAvatar } from '@lockdrop/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { Avatar, useResendVerification, useSession, useUpdateProfile } from '@/features/auth';
import { notify } from '@/lib/toast';
import { uploadImage } from '@/lib/upload-image';
import { SettingsCard } from './settings-card';

export function ProfileSection() {
  const { user, profile } = useSession();
  const update = useUpdateProfile();
  const resend = useResendVerification();
  const [fullName, setFullName] = useState(profile?.fullName ?? '');
  const [error, setError] = useState<string>();
  const [avatarError, setAvatarError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const avatarHintId = useId();
  // The picture goes to delivery (resized and re-encoded as store logos are), then its path is
  // saved on the profile at once: choosing a picture is the whole action, no Save needed.
  const uploadAvatar = useMutation({
    mutationFn: (file: File) =>
      uploadImage<UploadedAvatar>('/api/avatars', file, 'We could not upload your picture.'),
  });
  const avatarUrl = profile?.avatarUrl ?? null;
  const avatarBusy = uploadAvatar.isPending || update.isPending;

  function saveAvatar(next: string | null, done: string) {
    update.mutate(
      { avatarUrl: next },
      {
        onSuccess: () => notify.success(done),
        onError: (failure) => setAvatarError(failure.message),
      },
    );
  }

  function onPicture(file: File | undefined) {
    if (!file) return;
    setAvatarError(undefined);
    uploadAvatar.mutate(file, {
      onSuccess: (uploaded) => saveAvatar(uploaded.avatarUrl, 'Profile picture updated'),
      onError: (failure) => setAvatarError(failure.message),
    });
    if (fileInput.current) fileInput.current.value = '';
  }

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
      { fullName: name.data },
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
            avatarUrl={avatarUrl}
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
        <div>
          <p className="text-sm font-medium text-slate-900">Profile picture</p>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
              aria-label="Choose a profile picture"
              aria-describedby={avatarHintId}
              className="sr-only"
              onChange={(event) => onPicture(event.target.files?.[0])}
            />
            <Button
              variant="secondary"
              size="sm"
              disabled={avatarBusy}
              onClick={() => fileInput.current?.click()}
            >
              {uploadAvatar.isPending ? 'Uploading…' : 'Upload a picture'}
            </Button>
            {avatarUrl && (
              <Button
                variant="ghost"
                size="sm"
                disabled={avatarBusy}
                onClick={() => saveAvatar(null, 'Profile picture removed')}
              >
                Remove picture
              </Button>
            )}
          </div>
          <p id={avatarHintId} className="mt-1 text-xs text-slate-600">
            PNG, JPEG, WebP, GIF or SVG, up to 5 MB; we resize it. Without one, a picture is made
            from your e-mail.
          </p>
          {avatarError && (
            <p role="alert" className="mt-1 text-sm text-rose-700">
              {avatarError}
            </p>
          )}
        </div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save profile'}
        </Button>
      </form>
    </SettingsCard>
  );
}
