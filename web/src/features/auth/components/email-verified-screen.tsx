import { planById } from '@lockdrop/plans';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { planCheckoutHref, recallChosenPlan } from '@/lib/chosen-plan';
import { notify } from '@/lib/toast';
import { useSession } from '../api/get-session';
import { refreshSession } from '../api/refresh-session';
import { useResendVerification } from '../api/recovery';
import { formText } from '../lib/use-form-problem';
import { AuthCard } from './auth-card';
import { EmailField } from './auth-fields';

const problems: Record<string, { title: string; description: string }> = {
  token_expired: {
    title: 'This link has expired',
    description: 'Verification links are valid for a limited time. We can send you a new one.',
  },
  invalid_token: {
    title: 'This link is invalid or has already been used',
    description: 'If your e-mail is not verified yet, we can send you a new link.',
  },
};

function ResendForm() {
  const { user } = useSession();
  const resend = useResendVerification();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = user ? undefined : formText(event.currentTarget, 'email').trim();
    if (email === '') return notify.problem('Missing Information', 'Please fill in all fields');
    resend.mutate(email, {
      onSuccess: () =>
        notify.success('Verification e-mail sent', 'Check your inbox for the new link.'),
      onError: (error) => notify.error(error, 'Failed to send the verification e-mail'),
    });
  }
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Resend verification e-mail"
      className="space-y-5"
    >
      {!user && <EmailField />}
      <Button type="submit" size="lg" className="w-full" disabled={resend.isPending}>
        {resend.isPending ? 'Sending...' : 'Resend verification e-mail'}
      </Button>
    </form>
  );
}

/** Where the verification link lands (identity redirects here, with ?error= when it failed). */
export function EmailVerifiedScreen() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  // Read after mounting: localStorage is this browser's, never the prerendered page's.
  const [chosenPlan, setChosenPlan] = useState<ReturnType<typeof recallChosenPlan>>(null);
  useEffect(() => setChosenPlan(recallChosenPlan()), []);
  const problem =
    problems[params.get('error') ?? ''] ??
    (params.get('error') ? problems.invalid_token : undefined);

  // A signed-in browser holds an access token that still says "unverified": renew it now, so
  // purchases and downloads (which need a verified e-mail) work without signing in again.
  useEffect(() => {
    if (problem) return;
    void refreshSession(queryClient);
  }, [problem, queryClient]);

  if (problem) {
    return (
      <AuthCard title={problem.title} description={problem.description}>
        <CircleAlert className="mx-auto mb-6 size-10 text-amber-500" aria-hidden="true" />
        <ResendForm />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="E-mail verified" description="Thanks! Your e-mail address is confirmed.">
      <div className="flex flex-col items-center text-center">
        <CircleCheck className="size-10 text-emerald-600" aria-hidden="true" />
        <p className="mt-4 text-slate-700">
          You can now download what you buy here — and sell your own files if you wish.
        </p>
        {/* A plan chosen on /pricing before sign-up (lib/chosen-plan) comes first. */}
        {chosenPlan && (
          <ButtonLink to={planCheckoutHref(chosenPlan)} size="lg" className="mt-6 w-full">
            Continue to {planById(chosenPlan.plan).name} checkout
          </ButtonLink>
        )}
        {/* Buyers verify too: neither way is assumed. Sellers go on to the (skippable) setup. */}
        <ButtonLink
          to={paths.purchases.getHref()}
          size="lg"
          variant={chosenPlan ? 'secondary' : 'primary'}
          className={`${chosenPlan ? 'mt-2' : 'mt-6'} w-full`}
        >
          Go to my purchases
        </ButtonLink>
        <ButtonLink to={paths.onboarding.getHref()} variant="ghost" className="mt-2 w-full">
          Start selling
        </ButtonLink>
      </div>
    </AuthCard>
  );
}
