import type { OAuthProviders } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const oauthProvidersQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'oauth-providers'],
    queryFn: () => api<OAuthProviders>('/api/auth/oauth/providers'),
    staleTime: 10 * 60_000,
  });

export const useOAuthProviders = () => useQuery(oauthProvidersQueryOptions());

/** Identity's redirect to Google; it comes back to `redirectTo` signed in. */
export function googleStartHref(redirectTo: string, remember: boolean): string {
  const query = new URLSearchParams({ redirectTo, remember: String(remember) });
  return `/api/auth/oauth/google/start?${query.toString()}`;
}
