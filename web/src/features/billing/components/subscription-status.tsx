import type { SubscriptionView } from '@lockdrop/contracts';
import { statusLabel, statusOf } from '../lib/format';

const tones: Record<ReturnType<typeof statusOf>, string> = {
  active: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-200',
  past_due: 'bg-amber-50 text-amber-800 ring-amber-200',
  expired: 'bg-slate-100 text-slate-600 ring-slate-200',
};

export function SubscriptionStatus({ subscription }: { subscription: SubscriptionView }) {
  const status = statusOf(subscription);
  return (
    <span
      data-testid="subscription-status"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${tones[status]}`}
    >
      {statusLabel[status]}
    </span>
  );
}
