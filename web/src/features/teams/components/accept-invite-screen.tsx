import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { useAcceptInvite, useSwitchStore } from '../api/teams';

/**
 * /invite?token=…, the invitation e-mail's link: a signed-in person (with the invited address)
 * accepts at once; anyone else signs in or signs up first and comes back here.
 */
export function AcceptInviteScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { isSignedIn, loading, user } = useSession();
  const accept = useAcceptInvite();
  const switchStore = useSwitchStore();
  const asked = useRef(false);
  useEffect(() => {
    if (!loading && isSignedIn && token && !asked.current) {
      asked.current = true;
      accept.mutate(token);
    }
  }, [loading, isSignedIn, token, accept]);

  const here = `/invite?token=${encodeURIComponent(token)}`;
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Join a store on Lockdrop</h1>
      {!token && <p className="mt-4 text-slate-600">This invitation link is incomplete.</p>}
      {token && !loading && !isSignedIn && (
        <div className="mt-6 space-y-3">
          <p className="text-slate-600">
            Sign in, or create an account, with the e-mail address the invitation was sent to.
          </p>
          <div className="flex justify-center gap-3">
            <ButtonLink to={paths.auth.login.getHref(here)}>Sign in</ButtonLink>
            <ButtonLink
              variant="secondary"
              to={`${paths.auth.signup.getHref()}?redirectTo=${encodeURIComponent(here)}`}
            >
              Create an account
            </ButtonLink>
          </div>
        </div>
      )}
      {accept.isPending && <p className="mt-6 text-slate-600">Accepting the invitation…</p>}
      {accept.isError && (
        <p role="alert" className="mt-6 text-rose-700">
          {accept.error.message}
          {user && ` (you are signed in as ${user.email})`}
        </p>
      )}
      {accept.isSuccess && (
        <div className="mt-6 space-y-4" role="status">
          <p className="text-slate-700">
            You joined <strong>{accept.data.storeName}</strong> as {accept.data.role}.
          </p>
          <button
            type="button"
            data-testid="open-store"
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white"
            disabled={switchStore.isPending}
            onClick={() =>
              switchStore.mutate(accept.data.storeId, {
                onSuccess: () => window.location.assign(paths.dashboard.root.getHref()),
              })
            }
          >
            Open {accept.data.storeName}
          </button>
          <p className="text-sm">
            <Link to={paths.dashboard.root.getHref()} className="text-indigo-700 underline">
              Stay in my own account
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
