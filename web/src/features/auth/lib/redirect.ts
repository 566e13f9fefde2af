import { paths } from '@/config/paths';

/**
 * Where to go after signing in: `redirectTo` when it is a path on this site (never another
 * origin, so a crafted link cannot send a fresh session elsewhere), else the dashboard.
 */
export function safeRedirect(redirectTo: string | null | undefined): string {
  if (!redirectTo || !redirectTo.startsWith('/') || redirectTo.startsWith('//')) {
    return paths.dashboard.root.getHref();
  }
  if (redirectTo.startsWith('/\\')) return paths.dashboard.root.getHref();
  return redirectTo;
}
