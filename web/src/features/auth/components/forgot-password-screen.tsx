import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';
import { useRequestPasswordReset } from '../api/recovery';
import { formText, useFormProblem } from '../lib/use-form-problem';
import { AuthCard, textLinkClass } from './auth-card';
import { EmailField } from './auth-fields';

const backToSignIn = (
  <Link to={paths.auth.login.getHref()} className={textLinkClass}>
    Back to sign in
  </Link>
);

/** /forgot-password: the answer is the same whether or not the e-mail has an account. */
export function ForgotPasswordScreen() {
  const request = useRequestPasswordReset();
  const problem = useFormProblem();
  const [sentTo, setSentTo] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const email = formText(form, 'email').trim();
    if (!email) {
      return problem.report(form, {
        title: 'Missing Information',
        description: 'Please fill in all fields',
        fields: { email: 'Please enter your e-mail address' },
      });
    }
    problem.clear();
    request.mutate(email, {
      onSuccess: () => setSentTo(email),
      onError: (error) => notify.error(error, 'Failed to send the reset link'),
    });
  }

  if (sentTo) {
    return (
      <AuthCard title="Check your e-mail" footer={backToSignIn}>
        <div role="status" className="flex flex-col items-center text-center">
          <MailCheck className="size-10 text-indigo-600" aria-hidden="true" />
          <p className="mt-4 text-slate-700">
            If an account exists for <strong className="break-all">{sentTo}</strong>, we have sent a
            link to choose a new password. It is valid for 1 hour.
          </p>
          <Button variant="ghost" className="mt-6" onClick={() => setSentTo(null)}>
            Use a different e-mail
          </Button>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Reset your password"
      description="Enter the e-mail you signed up with and we will send you a reset link."
      footer={backToSignIn}
    >
      <form noValidate onSubmit={onSubmit} aria-label="Reset your password" className="space-y-5">
        <EmailField error={problem.fieldErrors.email} />
        <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
          {request.isPending ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
    </AuthCard>
  );
}
