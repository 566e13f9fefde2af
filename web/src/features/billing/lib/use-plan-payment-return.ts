import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { refreshSession } from '@/features/auth';
import { planById } from '@lockdrop/plans';
import { notify } from '@/lib/toast';
import { planBillingQuery } from '../api/billing';

const POLL_MS = 1_000;
const GIVE_UP_MS = 60_000;

/**
 * Back from the provider's page after paying for a plan (`?plan_payment=1`): the payment is
 * confirmed by its webhook a moment later, so ask payments until the plan shows, then renew the
 * session so the new plan's claim reaches every service (uploads, fees, the dashboard).
 */
export function usePlanPaymentReturn() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const returning = params.get('plan_payment') === '1';
  const startedAt = useRef(Date.now());

  useEffect(() => {
    if (!returning) return;
    let stopped = false;
    const before = queryClient.getQueryData(planBillingQuery.queryKey)?.subscription?.id ?? null;
    const check = async () => {
      if (stopped) return;
      const billing = await queryClient.fetchQuery({ ...planBillingQuery, staleTime: 0 });
      const paid = billing.subscription && billing.subscription.id !== before;
      if (paid && billing.subscription?.status === 'active') {
        const account = await refreshSession(queryClient);
        if (account?.user.plan === billing.plan) {
          notify.success(`You are now on the ${planById(billing.plan).name} plan.`);
          setParams({}, { replace: true });
          return;
        }
      }
      if (Date.now() - startedAt.current > GIVE_UP_MS) {
        notify.problem(
          'Payment not confirmed yet',
          'Your plan changes as soon as the payment provider confirms the payment.',
        );
        setParams({}, { replace: true });
        return;
      }
      setTimeout(() => void check().catch(() => undefined), POLL_MS);
    };
    void check().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [returning, queryClient, setParams]);

  return returning;
}
