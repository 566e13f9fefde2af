import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { chosenPlanFrom, planCheckoutHref, rememberChosenPlan } from '@/lib/chosen-plan';
import { notify } from '@/lib/toast';
import { useSession } from '../api/get-session';
import { safeRedirect } from '../lib/redirect';
import { AuthCard, textLinkClass } from './auth-card';
import { SignUpForm } from './sign-up-form';

/** /signup and /lockdrop/signup: the new account is signed in at once; the e-mail is confirmed later. */
export function SignUpScreen({ brand = false }: { brand?: boolean }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { isSignedIn, loading } = useSession();
  const [justSignedUp, setJustSignedUp] = useState(false);
  // A plan chosen on /pricing goes on to its checkout, unless a page asked for somewhere else.
  const chosenPlan = chosenPlanFrom(params);
  const redirectTo =
    chosenPlan && !params.get('redirectTo')
      ? planCheckoutHref(chosenPlan)
      : safeRedirect(params.get('redirectTo'));

  if (!loading && isSignedIn && !justSignedUp) return <Navigate to={redirectTo} replace />;

  const onSignedUp = () => {
    setJustSignedUp(true);
    if (chosenPlan) rememberChosenPlan(chosenPlan);
    notify.success('Account Created!', 'Please check your email to verify your account');
    navigate(redirectTo, { replace: true });
  };
  const signInPath = brand ? paths.auth.brandLogin.getHref() : paths.auth.login.getHref();
  // Someone who already has an account keeps the chosen plan when they sign in instead.
  const signInHref = chosenPlan
    ? `${signInPath}?${new URLSearchParams({ redirectTo }).toString()}`
    : signInPath;
  return (
    <AuthCard
      eyebrow={brand ? 'Lockdrop for creators' : undefined}
      title="Create your account"
      description="Start selling your files in minutes. Free plan, no card needed."
      footer={
        <>
          Already have an account?{' '}
          <Link to={signInHref} className={textLinkClass}>
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm redirectTo={redirectTo} onSignedUp={onSignedUp} />
    </AuthCard>
  );
}
