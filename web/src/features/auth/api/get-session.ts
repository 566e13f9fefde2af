import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, NETWORK_ERROR } from '@/lib/api';
import { useHydrated } from '@/lib/use-hydrated';

/** GET /api/auth/session (identity). */
export interface Session {
  user: { id: string; email: string; emailVerified: boolean; plan: string };
  profile: Record<string, unknown> | null;
}

// A hand-written guard rather than zod: the session check runs on every page, and zod would add
// several KB to the landing page's initial JavaScript.
function isSession(value: unknown): value is Session {
  const user = (value as Partial<Session> | null)?.user;
  return (
    typeof user?.id === 'string' &&
    typeof user.email === 'string' &&
    typeof user.emailVerified === 'boolean' &&
    typeof user.plan === 'string'
  );
}

const SIGNED_OUT = new Set([401, 404]);

/** The current session, or null when signed out. An unreachable identity service counts as signed out. */
export async function getSession(): Promise<Session | null> {
  try {
    const body = await api<unknown>('/api/auth/session');
    if (!isSession(body))
      throw new ApiError('invalid_session_response', 200, 'Unexpected session response');
    return { ...body, profile: body.profile ?? null };
  } catch (error) {
    if (error instanceof ApiError && (SIGNED_OUT.has(error.status) || error.code === NETWORK_ERROR))
      return null;
    throw error;
  }
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'session'], queryFn: getSession, staleTime: 5 * 60_000 });

/** Signed in only once the session is confirmed; pending and errors render the signed-out shell. */
export function useSession() {
  const query = useQuery(sessionQueryOptions());
  const session = useHydrated() ? (query.data ?? null) : null;
  return { session, isSignedIn: session !== null, isPending: query.isPending };
}
