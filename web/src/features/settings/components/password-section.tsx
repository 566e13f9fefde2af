import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { MIN_PASSWORD_LENGTH } from '@/features/auth';
import { notify } from '@/lib/toast';
import { useChangePassword } from '../api/account';
import { SettingsCard } from './settings-card';

const text = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '');

export function PasswordSection() {
  const change = useChangePassword();
  const [errors, setErrors] = useState<Record<string, string>>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const currentPassword = text(form, 'currentPassword');
    const newPassword = text(form, 'newPassword');
    const problems: Record<string, string> = {};
    if (!currentPassword) problems.currentPassword = 'Please enter your current password';
    if (newPassword.length < MIN_PASSWORD_LENGTH)
      problems.newPassword = 'Password must be at least 8 characters long';
    setErrors(problems);
    const [first] = Object.keys(problems);
    if (first) return (form.elements.namedItem(first) as HTMLInputElement).focus();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset();
          notify.success('Password changed', 'Your other sessions were signed out.');
        },
        onError: (error) => notify.error(error, 'Failed to change your password'),
      },
    );
  }

  return (
    <SettingsCard
      id="settings-password"
      title="Password"
      description="Changing it signs out your other devices."
    >
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="Change password"
        className="grid gap-5 sm:grid-cols-2"
      >
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          error={errors.newPassword}
          hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Updating...' : 'Change password'}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
