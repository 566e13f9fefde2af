import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '../api/get-session';

export function AuthLoading() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center" aria-busy="true">
      <span
        className="size-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600"
        role="status"
        aria-label="Loading"
      />
    </div>
  );
}

/**
 * Route guard: signed-out visitors go to /login?redirectTo=<this path>, and sign-in brings them
 * back. Wrap a page (`<RequireAuth><Page /></RequireAuth>`) or use it as a layout route element.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { isSignedIn, loading } = useSession();
  const { pathname, search, hash } = useLocation();
  if (loading) return <AuthLoading />;
  if (!isSignedIn) {
    return <Navigate to={paths.auth.login.getHref(`${pathname}${search}${hash}`)} replace />;
  }
  return children ?? <Outlet />;
}
