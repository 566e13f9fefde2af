import type { QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sessionQueryKey, toAccount, type Account } from './get-session';

/**
 * Renews the access token now, so claims that changed on the server (a verified e-mail, a new
 * plan) reach every service without signing in again. On failure the session is read again.
 */
export async function refreshSession(queryClient: QueryClient): Promise<Account | null> {
  try {
    const account = toAccount(await api<unknown>('/api/auth/refresh', { method: 'POST' }));
    queryClient.setQueryData(sessionQueryKey, account);
    return account;
  } catch {
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    return null;
  }
}
