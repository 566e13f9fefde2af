import type { SessionResponse, StoreRight } from '@lockdrop/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, NETWORK_ERROR } from '@/lib/api';
import { useHydrated } from '@/lib/use-hydrated';

export type { PayoutMethod, Profile, ProfileRole as Role } from '@lockdrop/contracts';

/**
 * What identity answers for GET /api/auth/session, sign-in, sign-up, MFA challenge and refresh
 * (`sessionResponseSchema`); profile and session may be missing while an answer is assembled
 * from an older cached one.
 */
export type Account = Omit<SessionResponse, 'profile' | 'session'> & {
  profile: SessionResponse['profile'] | null;
  session: SessionResponse['session'] | null;
};

// A hand-written guard rather than zod: the session check runs on every page, and zod would add
// several KB to the landing page's initial JavaScript.
export function isAccount(value: unknown): value is Account {
  const user = (value as Partial<Account> | null)?.user;
  return (
    typeof user?.id === 'string' &&
    typeof user.email === 'string' &&
    typeof user.emailVerified === 'boolean' &&
    typeof user.plan === 'string'
  );
}

export function toAccount(body: unknown): Account {
  if (!isAccount(body))
    throw new ApiError('invalid_session_response', 200, 'Unexpected session response');
  return { ...body, profile: body.profile ?? null, session: body.session ?? null };
}

const SIGNED_OUT = new Set([401, 404]);

/** The current account, or null when signed out. An unreachable identity service counts as signed out. */
export async function getSession(): Promise<Account | null> {
  try {
    const body = await api<unknown>('/api/auth/session');
    // A visitor with no session cookie at all is told "nobody" with a 200 (no 401 in the console).
    if ((body as { user?: unknown } | null)?.user === null) return null;
    return toAccount(body);
  } catch (error) {
    if (error instanceof ApiError && (SIGNED_OUT.has(error.status) || error.code === NETWORK_ERROR))
      return null;
    throw error;
  }
}

export const sessionQueryKey = ['auth', 'session'] as const;

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 5 * 60_000 });

/**
 * The signed-in account (spec §4: user, profile, session, loading). Signed in only once the
 * session is confirmed; while loading, and on errors, the shell renders signed out.
 */
export function useSession() {
  const query = useQuery(sessionQueryOptions());
  const hydrated = useHydrated();
  const account = hydrated ? (query.data ?? null) : null;
  const loading = !hydrated || query.isPending;
  return {
    account,
    user: account?.user ?? null,
    profile: account?.profile ?? null,
    session: account?.session ?? null,
    loading,
    isSignedIn: account !== null,
    isPending: query.isPending,
  };
}

/**
 * The store this session acts for (issue 28), or null on the person's own account. The server
 * enforces every right; the web only hides what the role cannot do.
 */
export function useActing() {
  return useSession().account?.acting ?? null;
}

/**
 * Whether this session may do `right` in the store it works for: always on the person's own
 * account, otherwise as libs/auth's role table says (the session carries the role's rights).
 */
export function useMay(right: StoreRight): boolean {
  const acting = useActing();
  return !acting || acting.rights.includes(right);
}

/**
 * The session now stands for another store (or the person's own account again): the session
 * query takes the new answer (its observers re-render at once) and everything else cached, which
 * belonged to the other store, is dropped.
 */
export function switchedAccount(queryClient: QueryClient, account: Account): void {
  queryClient.setQueryData(sessionQueryKey, account);
  queryClient.removeQueries({
    predicate: (query) => !(query.queryKey[0] === 'auth' && query.queryKey[1] === 'session'),
  });
}
