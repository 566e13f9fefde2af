import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { sessionQueryKey, switchedAccount, toAccount, type Account } from '../api/get-session';
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

  // Removed from the store this session acts for, or given another role there (issue 28: the
  // gateway refuses the member's next request): refresh issues what the person now has — their
  // own account, or the store with the new role (read-only after a downgrade, say).
  useEffect(() => {
    let switching = false;
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error' || switching) return;
      const error = event.action.error;
      if (!(error instanceof ApiError) || error.code !== MEMBERSHIP_ENDED) return;
      switching = true;
      void api<unknown>('/api/auth/refresh', { method: 'POST' })
        .then((body) => {
          const account = toAccount(body);
          switchedAccount(queryClient, account);
          const acting = account.acting;
          if (acting)
            notify.error(
              undefined,
              acting.readOnly
                ? `Your access to ${acting.storeName} is read-only now: its plan has fewer team seats than members`
                : `Your role in ${acting.storeName} is now ${acting.role}`,
            );
          else
            notify.error(
              undefined,
              'You are no longer a member of that store: back to your own account',
            );
        })
        .catch(() => queryClient.setQueryData(sessionQueryKey, null))
        .finally(() => {
          switching = false;
        });
    });
  }, [queryClient]);
  return null;
}

const MEMBERSHIP_ENDED = 'store_membership_ended';
