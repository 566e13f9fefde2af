import { Clock, LifeBuoy, Wallet } from 'lucide-react';
import { policies } from '@/config/policies';
import { useHydrated } from '@/lib/use-hydrated';
import { usePlatformStatus } from '../api/get-status';

const statusText = {
  pending: { dot: 'bg-slate-400', label: 'Checking the platform status…' },
  operational: { dot: 'bg-emerald-500', label: 'All systems operational' },
  degraded: { dot: 'bg-amber-500', label: 'Some services are degraded — we are on it' },
} as const;

export function StatusSection() {
  const { data } = usePlatformStatus();
  // The prerendered HTML says 'checking'; hydration must render the same before showing the answer.
  const status = statusText[(useHydrated() && data) || 'pending'];
  const commitments = [
    {
      icon: LifeBuoy,
      label: 'Support replies',
      value: `within ${policies.supportReplyHours} hours`,
    },
    {
      icon: Clock,
      label: 'Billing questions',
      value: `within ${policies.billingReplyBusinessDays} business days`,
    },
    {
      icon: Wallet,
      label: 'Payouts',
      value: `in ${policies.payoutBusinessDays.min}-${policies.payoutBusinessDays.max} business days`,
    },
  ];
  return (
    <section
      id="status"
      aria-labelledby="status-title"
      className="border-y border-slate-200 bg-slate-50 py-14"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between lg:px-8">
        <div>
          <h2 id="status-title" className="text-xl font-bold text-slate-900">
            Platform status
          </h2>
          <p
            className="mt-2 flex items-center gap-2 text-sm font-medium text-slate-700"
            role="status"
          >
            <span className={`size-2.5 rounded-full ${status.dot}`} aria-hidden="true" />
            {status.label}
          </p>
        </div>
        <ul className="grid gap-4 sm:grid-cols-3 lg:gap-10">
          {commitments.map(({ icon: Icon, label, value }) => (
            <li key={label} className="flex items-center gap-3">
              <Icon className="size-5 text-indigo-600" aria-hidden="true" />
              <p className="text-sm">
                <span className="block text-slate-500">{label}</span>
                <span className="font-semibold text-slate-900">{value}</span>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
