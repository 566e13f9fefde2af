import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { AuthCodeField } from '@/features/auth';
import { notify } from '@/lib/toast';
import { useEnrollMfa, useMfaStatus, useUnenrollMfa, useVerifyMfa } from '../api/mfa';
import { SettingsCard } from './settings-card';

const codeOf = (form: HTMLFormElement) =>
  String(new FormData(form).get('code') ?? '').replace(/\s/g, '');

function CodeForm({
  label,
  busy,
  busyLabel,
  onCode,
}: {
  label: string;
  busy: boolean;
  busyLabel: string;
  onCode: (code: string, form: HTMLFormElement) => void;
}) {
  const [error, setError] = useState<string>();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = codeOf(event.currentTarget);
    if (!/^\d{6}$/.test(code))
      return setError('Enter the 6-digit code from your authenticator app');
    setError(undefined);
    onCode(code, event.currentTarget);
  }
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={label}
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
    >
      <AuthCodeField error={error} className="sm:w-56" />
      <Button type="submit" className="sm:mt-7" disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </form>
  );
}

export function MfaSection() {
  const status = useMfaStatus();
  const enroll = useEnrollMfa();
  const verify = useVerifyMfa();
  const unenroll = useUnenrollMfa();
  const enabled = status.data?.enabled ?? false;

  return (
    <SettingsCard
      id="settings-mfa"
      title="Two-factor authentication"
      description="Ask for a code from an authenticator app when you sign in."
    >
      {enabled ? (
        <div className="space-y-5">
          <p className="flex items-center gap-2 text-sm font-medium text-emerald-700">
            <ShieldCheck className="size-5" aria-hidden="true" /> Two-factor authentication is on
          </p>
          <p className="text-sm text-slate-600">To turn it off, enter a current code.</p>
          <CodeForm
            label="Turn off"
            busyLabel="Turning off..."
            busy={unenroll.isPending}
            onCode={(code) =>
              unenroll.mutate(code, {
                onSuccess: () => {
                  enroll.reset();
                  notify.success('Two-factor authentication turned off');
                },
                onError: (error) => notify.error(error),
              })
            }
          />
        </div>
      ) : enroll.data ? (
        <div className="grid gap-6 sm:grid-cols-[auto_1fr]">
          <img
            src={enroll.data.qrCodeDataUrl}
            alt="QR code for your authenticator app"
            className="size-44 rounded-lg ring-1 ring-slate-200"
          />
          <div className="space-y-4 text-sm text-slate-600">
            <p>
              Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy…),
              then enter the code it shows.
            </p>
            <p>
              Can't scan? Enter this key:{' '}
              <code
                className="rounded bg-slate-100 px-1.5 py-0.5 break-all text-slate-900"
                data-testid="mfa-secret"
              >
                {enroll.data.secret}
              </code>
            </p>
            <CodeForm
              label="Verify and turn on"
              busyLabel="Verifying..."
              busy={verify.isPending}
              onCode={(code) =>
                verify.mutate(code, {
                  onSuccess: () => notify.success('Two-factor authentication is on'),
                  onError: (error) => notify.error(error),
                })
              }
            />
          </div>
        </div>
      ) : (
        <Button
          variant="secondary"
          disabled={status.isPending || enroll.isPending}
          onClick={() => enroll.mutate(undefined, { onError: (error) => notify.error(error) })}
        >
          {enroll.isPending ? 'Preparing...' : 'Set up two-factor authentication'}
        </Button>
      )}
    </SettingsCard>
  );
}
