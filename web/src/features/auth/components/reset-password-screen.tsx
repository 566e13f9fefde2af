import { type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { useResetPassword } from '../api/recovery';
import { formText, useFormProblem } from '../lib/use-form-problem';
import { MIN_PASSWORD_LENGTH, weakPassword } from '../lib/validation';
import { AuthCard, textLinkClass } from './auth-card';
import { TextField } from '@/components/ui/text-field';

const LINK_PROBLEMS = new Set(['invalid_token', 'token_expired']);

/** /reset-password?token=… — the link from the reset e-mail. */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const problem = useFormProblem();
  const linkBroken =
    !token || (reset.error instanceof ApiError && LINK_PROBLEMS.has(reset.error.code));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const password = formText(form, 'password');
    const invalid =
      weakPassword(password) ??
      (password === formText(form, 'confirm')
        ? null
        : {
            title: 'Passwords do not match',
            description: 'Please type the same password twice',
            fields: { confirm: 'Passwords do not match' },
          });
    if (invalid) return problem.report(form, invalid);
    problem.clear();
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          notify.success('Password updated', 'Sign in with your new password.');
          navigate(paths.auth.login.getHref(), { replace: true });
        },
        onError: (error) => notify.error(error, 'Failed to reset your password'),
      },
    );
  }

  if (linkBroken) {
    const message = reset.error?.message ?? 'This link is invalid or has already been used';
    return (
      <AuthCard title="This link does not work" description={message}>
        <Link
          to={paths.auth.forgotPassword.getHref()}
          className={`block text-center ${textLinkClass}`}
        >
          Request a new reset link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Choose a new password"
      description="Pick something you don't use anywhere else."
    >
      <form noValidate onSubmit={onSubmit} aria-label="Choose a new password" className="space-y-5">
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          error={problem.fieldErrors.password}
          hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <TextField
          label="Confirm new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          error={problem.fieldErrors.confirm}
        />
        <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
          {reset.isPending ? 'Updating...' : 'Update password'}
        </Button>
      </form>
    </AuthCard>
  );
}
