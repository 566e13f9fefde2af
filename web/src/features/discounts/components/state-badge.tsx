import type { DiscountState } from '@lockdrop/contracts';

const styles: Record<DiscountState, { label: string; className: string }> = {
  active: { label: 'Active', className: 'bg-emerald-50 text-emerald-700' },
  scheduled: { label: 'Scheduled', className: 'bg-sky-50 text-sky-700' },
  expired: { label: 'Expired', className: 'bg-slate-100 text-slate-600' },
  exhausted: { label: 'Exhausted', className: 'bg-amber-50 text-amber-800' },
  inactive: { label: 'Inactive', className: 'bg-slate-100 text-slate-600' },
};

/** Where a code stands now, as payments works it out (dates, limits, the active switch). */
export function StateBadge({ state }: { state: DiscountState }) {
  const { label, className } = styles[state];
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${className}`}
    >
      {label}
    </span>
  );
}
