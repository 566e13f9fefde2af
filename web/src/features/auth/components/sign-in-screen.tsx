import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';
import { useSession } from '../api/get-session';
import { safeRedirect } from '../lib/redirect';
import { AuthCard, textLinkClass } from './auth-card';
import { MfaChallengeForm } from './mfa-challenge-form';
import { SignInForm } from './sign-in-form';

/** Where a buyer is sent to sign in from; they read about their purchases, not payouts. */
const BUYER_PATHS = ['/purchases', '/product/', '/p/', '/payment/', '/receipt/'];
const isBuyerDestination = (path: string) => BUYER_PATHS.some((prefix) => path.startsWith(prefix));

const oauthErrors: Record<string, string> = {
  oauth_email_unverified: 'Your Google account e-mail is not verified.',
  oauth_not_configured: 'Google sign-in is not configured on this server',
};

/** /login and /lockdrop/login: e-mail and password (or Google), then the MFA step if the account has one. */
export function SignInScreen({ brand = false }: { brand?: boolean }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { isSignedIn, loading } = useSession();
  const redirectTo = safeRedirect(params.get('redirectTo'));
  const [challengeToken, setChallengeToken] = useState(params.get('mfaChallenge'));
  const [justSignedIn, setJustSignedIn] = useState(false);
  const oauthError = params.get('error');

  useEffect(() => {
    if (oauthError)
      notify.problem(
        'Sign In Failed',
        oauthErrors[oauthError] ?? 'Google sign-in did not complete. Please try again.',
      );
  }, [oauthError]);

  if (!loading && isSignedIn && !justSignedIn) return <Navigate to={redirectTo} replace />;

  const onSignedIn = () => {
    setJustSignedIn(true);
    notify.success('Welcome back!', "You've been signed in successfully");
    navigate(redirectTo, { replace: true });
  };
  const signUpHref = brand ? paths.auth.brandSignup.getHref() : paths.auth.signup.getHref();

  if (challengeToken) {
    return (
      <AuthCard
        title="Two-factor authentication"
        description="One more step to keep your account safe."
      >
        <MfaChallengeForm
          challengeToken={challengeToken}
          onSignedIn={onSignedIn}
          onCancel={() => setChallengeToken(null)}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      eyebrow={brand ? 'Lockdrop for creators' : undefined}
      title="Welcome back"
      description={
        isBuyerDestination(redirectTo)
          ? 'Sign in to see your purchases and download your files.'
          : 'Sign in to manage your products, sales and payouts.'
      }
      footer={
        <>
          New to Lockdrop?{' '}
          <Link
            to={`${signUpHref}${params.get('redirectTo') ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`}
            className={textLinkClass}
          >
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm
        redirectTo={redirectTo}
        onSignedIn={onSignedIn}
        onMfaRequired={setChallengeToken}
      />
    </AuthCard>
  );
}
