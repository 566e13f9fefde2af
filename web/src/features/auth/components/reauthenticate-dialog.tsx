import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import {
  useReauthenticate,
  useReauthenticationMethod,
  useSendReauthenticationCode,
} from '../api/reauthenticate';

interface ReauthenticateDialogProps {
  open: boolean;
  /** What the proof is for, e.g. "change where your payouts go". */
  purpose: string;
  onConfirmed: () => void;
  onCancel: () => void;
}

/**
 * Asks for the password (or the authenticator code, or a code e-mailed to a Google-only account)
 * in a modal dialog, then lets the caller retry what identity's 403 stopped.
 */
export function ReauthenticateDialog({
  open,
  purpose,
  onConfirmed,
  onCancel,
}: ReauthenticateDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const method = useReauthenticationMethod(open);
  const sendCode = useSendReauthenticationCode();
  const confirm = useReauthenticate();
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
    if (!open && dialog?.open) dialog.close();
    if (!open) {
      setSecret('');
      setError(null);
    }
  }, [open]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!method.data || !secret) return setError('Please fill in all fields');
    const proof = method.data === 'password' ? { password: secret } : { code: secret };
    confirm.mutate(proof, {
      onSuccess: () => onConfirmed(),
      onError: (failure) => setError(failure.message),
    });
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={() => open && onCancel()}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-6 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Confirm it&apos;s you
        </h2>
        <p className="text-sm text-slate-700">
          To {purpose}, confirm who you are.
          {method.data === 'password' && ' Enter your password.'}
          {method.data === 'mfa' &&
            ' Enter the code from your authenticator app (or, without your phone, a recovery code).'}
          {method.data === 'email_code' && ' We e-mail you a code to enter here.'}
        </p>
        {method.isError && (
          <p role="alert" className="text-sm text-rose-700">
            {method.error.message}
          </p>
        )}
        {method.data === 'password' && (
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
          />
        )}
        {method.data === 'mfa' && (
          <TextField
            label="Authentication code"
            name="code"
            autoComplete="one-time-code"
            maxLength={13}
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
          />
        )}
        {method.data === 'email_code' && (
          <>
            <Button
              type="button"
              variant="secondary"
              disabled={sendCode.isPending}
              onClick={() =>
                sendCode.mutate(undefined, { onError: (failure) => setError(failure.message) })
              }
            >
              {sendCode.isSuccess ? 'Send another code' : 'E-mail me a code'}
            </Button>
            {sendCode.isSuccess && (
              <p className="text-sm text-slate-600">Code sent. It works once, for 10 minutes.</p>
            )}
            <TextField
              label="Code from the e-mail"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
            />
          </>
        )}
        {error && (
          <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={onCancel} disabled={confirm.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!method.data || confirm.isPending}>
            {confirm.isPending ? 'Confirming...' : 'Confirm'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
