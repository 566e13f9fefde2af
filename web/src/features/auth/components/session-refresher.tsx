import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ApiError } from '@/lib/api';
import { sessionQueryKey, toAccount, type Account } from '../api/get-session';
import { needsRefresh, REFRESH_TICK_MS, withRetries } from '../lib/session-refresh';

/**
 * Keeps the access token fresh while the app is open (spec §9), so calls to other services never
 * meet an expired token. Mounted once, in the app provider.
 */
export function SessionRefresher() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let inFlight = false;
    const tick = async () => {
      const account = queryClient.getQueryData<Account | null>(sessionQueryKey);
      if (inFlight || !account?.session || !needsRefresh(account.session.expiresAt, Date.now()))
        return;
      inFlight = true;
      try {
        const body = await withRetries(() => api<unknown>('/api/auth/refresh', { method: 'POST' }));
        queryClient.setQueryData(sessionQueryKey, toAccount(body));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401)
          queryClient.setQueryData(sessionQueryKey, null);
      } finally {
        inFlight = false;
      }
    };
    const onVisible = () => document.visibilityState === 'visible' && void tick();
    const timer = setInterval(() => void tick(), REFRESH_TICK_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [queryClient]);
  return null;
}
