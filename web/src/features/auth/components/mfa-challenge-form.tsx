import { useEffect, useRef, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
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

/** The second step of signing in when the account has two-factor authentication on. */
export function MfaChallengeForm({ challengeToken, onSignedIn, onCancel }: MfaChallengeFormProps) {
  const challenge = useMfaChallenge();
  const problem = useFormProblem();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    (formRef.current?.elements.namedItem('code') as HTMLInputElement | null)?.focus();
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = formText(form, 'code').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      return problem.report(form, {
        title: 'Missing Information',
        description: 'Please enter the 6-digit code from your authenticator app',
        fields: { code: 'Enter the 6-digit code' },
      });
    }
    problem.clear();
    challenge.mutate({ challengeToken, code }, { onSuccess: onSignedIn, onError: signInFailed });
  }

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-label="Two-factor authentication"
      className="space-y-5"
    >
      <AuthCodeField
        placeholder="123456"
        error={problem.fieldErrors.code}
        hint="Open your authenticator app and enter the 6-digit code for Lockdrop."
      />
      <Button type="submit" size="lg" className="w-full" disabled={challenge.isPending}>
        {challenge.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onCancel}>
        Back to sign in
      </Button>
    </form>
  );
}
