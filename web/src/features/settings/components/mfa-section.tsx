import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { AuthCodeField, REAUTHENTICATION_REQUIRED, ReauthenticateDialog } from '@/features/auth';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import {
  useEnrollMfa,
  useMfaStatus,
  useRegenerateRecoveryCodes,
  useUnenrollMfa,
  useVerifyMfa,
} from '../api/mfa';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { SettingsCard } from './settings-card';

const codeOf = (form: HTMLFormElement) =>
  String(new FormData(form).get('code') ?? '').replace(/\s/g, '');

/** A recovery code as shown (`xxxxx-xxxxx`), typed with or without the dash. */
const RECOVERY_CODE = /^[0-9a-z]{5}-?[0-9a-z]{5}$/i;

function CodeForm({
  label,
  busy,
  busyLabel,
  onCode,
  acceptRecoveryCode = false,
}: {
  label: string;
  busy: boolean;
  busyLabel: string;
  onCode: (code: string, form: HTMLFormElement) => void;
  /** Turning MFA off also takes a recovery code: the way back for a seller whose phone is gone. */
  acceptRecoveryCode?: boolean;
}) {
  const [error, setError] = useState<string>();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = codeOf(event.currentTarget);
    if (!/^\d{6}$/.test(code) && !(acceptRecoveryCode && RECOVERY_CODE.test(code)))
      return setError(
        acceptRecoveryCode
          ? 'Enter the 6-digit code from your authenticator app or a recovery code'
          : 'Enter the 6-digit code from your authenticator app',
      );
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
      <AuthCodeField
        error={error}
        className="sm:w-56"
        {...(acceptRecoveryCode ? { inputMode: 'text' as const, maxLength: 11 } : {})}
      />
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
  const regenerate = useRegenerateRecoveryCodes();
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [awaitingProof, setAwaitingProof] = useState(false);
  const enabled = status.data?.enabled ?? false;
  const remaining = status.data?.recoveryCodesRemaining ?? 0;

  function makeNewCodes() {
    regenerate.mutate(undefined, {
      onSuccess: ({ recoveryCodes }) => setShownCodes(recoveryCodes),
      onError: (error) => {
        if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED)
          return setAwaitingProof(true);
        notify.error(error);
      },
    });
  }

  if (shownCodes)
    return (
      <SettingsCard
        id="settings-mfa"
        title="Two-factor authentication"
        description="Ask for a code from an authenticator app when you sign in."
      >
        <RecoveryCodesPanel codes={shownCodes} onDone={() => setShownCodes(null)} />
      </SettingsCard>
    );

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
          <div className="space-y-3 rounded-xl p-4 ring-1 ring-slate-200">
            <p className="text-sm text-slate-700" data-testid="recovery-codes-remaining">
              {remaining === 0
                ? 'You have no recovery codes left. Make a new set so a lost phone cannot lock you out.'
                : `${remaining} of 10 recovery codes left. Each one signs you in once if you lose your phone.`}
            </p>
            <Button
              type="button"
              variant="secondary"
              disabled={regenerate.isPending}
              onClick={makeNewCodes}
            >
              {regenerate.isPending ? 'Making new codes...' : 'Make new recovery codes'}
            </Button>
            <p className="text-xs text-slate-500">
              A new set replaces the old one: old codes stop working.
            </p>
          </div>
          <p className="text-sm text-slate-600">
            To turn it off, enter a current code or one of your recovery codes.
          </p>
          <CodeForm
            label="Turn off"
            busyLabel="Turning off..."
            acceptRecoveryCode
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
                  onSuccess: ({ recoveryCodes }) => {
                    notify.success('Two-factor authentication is on');
                    setShownCodes(recoveryCodes);
                  },
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
      <ReauthenticateDialog
        open={awaitingProof}
        purpose="make new recovery codes"
        onConfirmed={() => {
          setAwaitingProof(false);
          makeNewCodes();
        }}
        onCancel={() => setAwaitingProof(false)}
      />
    </SettingsCard>
  );
}
