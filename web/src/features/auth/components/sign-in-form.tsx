import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { useSignIn } from '../api/sign-in';
import type { Account } from '../api/get-session';
import { formChecked, formText, useFormProblem } from '../lib/use-form-problem';
import { MIN_PASSWORD_LENGTH, validateSignIn } from '../lib/validation';
import { textLinkClass } from './auth-card';
import { TextField } from '@/components/ui/text-field';
import { EmailField } from './auth-fields';
import { Checkbox } from './checkbox';
import { GoogleSignIn } from './google-button';

export const signInFailed = (error: unknown) =>
  notify.problem(
    'Sign In Failed',
    error instanceof ApiError ? error.message : 'Please check your credentials and try again',
  );

interface SignInFormProps {
  redirectTo: string;
  onSignedIn: (account: Account) => void;
  onMfaRequired: (challengeToken: string) => void;
}

export function SignInForm({ redirectTo, onSignedIn, onMfaRequired }: SignInFormProps) {
  const signIn = useSignIn();
  const problem = useFormProblem();
  const [remember, setRemember] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = { email: formText(form, 'email').trim(), password: formText(form, 'password') };
    const invalid = validateSignIn(input);
    if (invalid) return problem.report(form, invalid);
    problem.clear();
    signIn.mutate(
      { ...input, remember: formChecked(form, 'remember') },
      {
        onSuccess: (result) =>
          result.kind === 'mfa' ? onMfaRequired(result.challengeToken) : onSignedIn(result.account),
        onError: signInFailed,
      },
    );
  }

  return (
    <>
      <GoogleSignIn redirectTo={redirectTo} remember={remember} />
      <form noValidate onSubmit={onSubmit} aria-label="Sign in" className="space-y-5">
        <EmailField error={problem.fieldErrors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={problem.fieldErrors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          aside={
            <Link to={paths.auth.forgotPassword.getHref()} className={`text-sm ${textLinkClass}`}>
              Forgot password?
            </Link>
          }
        />
        <Checkbox
          name="remember"
          label="Remember me for 30 days"
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <Button type="submit" size="lg" className="w-full" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
    </>
  );
}
