import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { notify } from '@/lib/toast';
import type { Account } from '../api/get-session';
import { useMfaChallenge } from '../api/sign-in';
import { formText, useFormProblem } from '../lib/use-form-problem';
import { AuthCodeField } from './auth-fields';
import { signInFailed } from './sign-in-form';

interface MfaChallengeFormProps {
  challengeToken: string;
  onSignedIn: (account: Account) => void;
  onCancel: () => void;
}

/** A recovery code as shown (`xxxxx-xxxxx`), typed with or without the dash or spaces. */
const RECOVERY_CODE = /^[0-9a-z]{5}-?[0-9a-z]{5}$/i;

const codesLeft = (remaining: number) =>
  remaining === 0
    ? 'That was your last recovery code. Make a new set in Settings now.'
    : `You have ${remaining} recovery code${remaining === 1 ? '' : 's'} left. Make a new set in Settings if you lost your phone.`;

/**
 * The second step of signing in when the account has two-factor authentication on: a code from
 * the authenticator app, or ("Use a recovery code") one of the one-time codes saved when it was
 * turned on.
 */
export function MfaChallengeForm({ challengeToken, onSignedIn, onCancel }: MfaChallengeFormProps) {
  const challenge = useMfaChallenge();
  const problem = useFormProblem();
  const formRef = useRef<HTMLFormElement>(null);
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);

  useEffect(() => {
    (formRef.current?.elements.namedItem('code') as HTMLInputElement | null)?.focus();
  }, [useRecoveryCode]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = formText(form, 'code').replace(/\s/g, '');
    if (useRecoveryCode ? !RECOVERY_CODE.test(code) : !/^\d{6}$/.test(code)) {
      return problem.report(form, {
        title: 'Missing Information',
        description: useRecoveryCode
          ? 'Please enter one of your recovery codes, like abcde-12345'
          : 'Please enter the 6-digit code from your authenticator app',
        fields: {
          code: useRecoveryCode ? 'Enter a 10-character recovery code' : 'Enter the 6-digit code',
        },
      });
    }
    problem.clear();
    challenge.mutate(
      { challengeToken, code },
      {
        onSuccess: ({ account, recoveryCodesRemaining }) => {
          if (recoveryCodesRemaining !== undefined)
            notify.success('Signed in with a recovery code', codesLeft(recoveryCodesRemaining));
          onSignedIn(account);
        },
        onError: signInFailed,
      },
    );
  }

  function switchMode() {
    problem.clear();
    setUseRecoveryCode((current) => !current);
  }

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-label="Two-factor authentication"
      className="space-y-5"
    >
      {useRecoveryCode ? (
        <TextField
          key="recovery"
          label="Recovery code"
          name="code"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={13}
          placeholder="abcde-12345"
          error={problem.fieldErrors.code}
          hint="Enter one of the recovery codes you saved when you turned on two-factor authentication. Each one works once."
        />
      ) : (
        <AuthCodeField
          key="totp"
          placeholder="123456"
          error={problem.fieldErrors.code}
          hint="Open your authenticator app and enter the 6-digit code for Lockdrop."
        />
      )}
      <Button type="submit" size="lg" className="w-full" disabled={challenge.isPending}>
        {challenge.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <Button type="button" variant="ghost" className="w-full" onClick={switchMode}>
        {useRecoveryCode ? 'Use your authenticator app' : 'Use a recovery code'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onCancel}>
        Back to sign in
      </Button>
    </form>
  );
}
