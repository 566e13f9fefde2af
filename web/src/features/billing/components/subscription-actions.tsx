import type { SubscriptionView } from '@lockdrop/contracts';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import { formatDay } from '../lib/format';
import { usePayPastDue, useSubscriptionAction, type SubscriptionAction } from '../api/billing';

const confirmations: Partial<Record<SubscriptionAction, string>> = {
  'sandbox/renew-now': 'Renewed now (test payment).',
  'sandbox/fail-next-renewal': 'The next renewal will be declined (test).',
};

/**
 * What a subscriber can do: cancel at period end, take that back, pay a failed renewal, and —
 * in test mode — renew now or make the next renewal fail.
 */
export function SubscriptionActions({
  subscription,
  cancelLabel = 'Cancel subscription',
}: {
  subscription: SubscriptionView;
  cancelLabel?: string;
}) {
  const action = useSubscriptionAction();
  const pay = usePayPastDue();
  const busy = action.isPending || pay.isPending;
  const run = (name: SubscriptionAction) =>
    action.mutate(
      { id: subscription.id, action: name },
      {
        onSuccess: (updated) => {
          if (name === 'cancel')
            notify.success(
              `Cancelled. You keep access until ${formatDay(updated.currentPeriodEnd)}.`,
            );
          else if (name === 'resume') notify.success('Your subscription continues.');
          else notify.success(confirmations[name]!);
        },
        onError: (error) => notify.error(error),
      },
    );
  if (subscription.status === 'expired') return null;
  return (
    <div className="flex flex-wrap gap-2">
      {subscription.status === 'past_due' && !subscription.cancelAtPeriodEnd && (
        <Button
          size="sm"
          disabled={busy}
          onClick={() => pay.mutate(subscription.id, { onError: (error) => notify.error(error) })}
        >
          Pay now
        </Button>
      )}
      {subscription.cancelAtPeriodEnd ? (
        subscription.status === 'active' && (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => run('resume')}>
            Resume
          </Button>
        )
      ) : (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => run('cancel')}>
          {cancelLabel}
        </Button>
      )}
      {subscription.testMode && !subscription.cancelAtPeriodEnd && (
        <>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() => run('sandbox/renew-now')}
          >
            Renew now (test)
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() => run('sandbox/fail-next-renewal')}
          >
            Fail next renewal (test)
          </Button>
        </>
      )}
    </div>
  );
}
