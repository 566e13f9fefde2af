import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import type { Account } from '../api/get-session';
import { useSignUp } from '../api/sign-up';
import { formChecked, formText, useFormProblem } from '../lib/use-form-problem';
import { MIN_PASSWORD_LENGTH, validateSignUp } from '../lib/validation';
import { textLinkClass } from './auth-card';
import { TextField } from '@/components/ui/text-field';
import { EmailField } from './auth-fields';
import { Checkbox } from './checkbox';
import { GoogleSignIn } from './google-button';

const signUpFailed = (error: unknown) =>
  notify.problem(
    'Sign Up Failed',
    error instanceof ApiError ? error.message : 'An error occurred during signup',
  );

export function SignUpForm({
  redirectTo,
  onSignedUp,
}: {
  redirectTo: string;
  onSignedUp: (account: Account) => void;
}) {
  const signUp = useSignUp();
  const problem = useFormProblem();
  const [remember, setRemember] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = {
      fullName: formText(form, 'fullName').trim(),
      email: formText(form, 'email').trim(),
      password: formText(form, 'password'),
      acceptTerms: formChecked(form, 'acceptTerms'),
    };
    const invalid = validateSignUp(input);
    if (invalid) return problem.report(form, invalid);
    problem.clear();
    signUp.mutate(
      { ...input, remember: formChecked(form, 'remember') },
      { onSuccess: onSignedUp, onError: signUpFailed },
    );
  }

  const { fieldErrors } = problem;
  return (
    <>
      <GoogleSignIn redirectTo={redirectTo} remember={remember} />
      <form noValidate onSubmit={onSubmit} aria-label="Sign up" className="space-y-5">
        <TextField
          label="Full name"
          name="fullName"
          autoComplete="name"
          error={fieldErrors.fullName}
        />
        <EmailField error={fieldErrors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={fieldErrors.password}
          hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <Checkbox
          name="remember"
          label="Remember me for 30 days"
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <Checkbox
          name="acceptTerms"
          error={fieldErrors.acceptTerms}
          label={
            <>
              I agree to the{' '}
              <Link to={paths.terms.getHref()} className={textLinkClass}>
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to={paths.privacy.getHref()} className={textLinkClass}>
                Privacy Policy
              </Link>
            </>
          }
        />
        <Button type="submit" size="lg" className="w-full" disabled={signUp.isPending}>
          {signUp.isPending ? 'Creating account...' : 'Create account'}
        </Button>
      </form>
    </>
  );
}
