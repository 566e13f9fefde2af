import type { LucideIcon } from 'lucide-react';

/** Spec §3 Stat card: name, value, change, isPositive. */
export interface StatCardProps {
  name: string;
  value: string;
  change: { text: string; isPositive: boolean };
  icon: LucideIcon;
  detail?: string;
}

export function StatCard({ name, value, change, icon: Icon, detail }: StatCardProps) {
  return (
    <article className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={name}>
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-medium text-slate-600">{name}</h3>
        <Icon className="size-5 text-indigo-500" aria-hidden="true" />
      </div>
      <p className="mt-3 text-2xl font-bold tracking-tight text-slate-900" data-stat-value>
        {value}
      </p>
      {detail && <p className="mt-1 text-xs text-slate-500">{detail}</p>}
      <p
        className={`mt-2 text-xs font-medium ${change.isPositive ? 'text-emerald-600' : 'text-rose-600'}`}
      >
        {change.text}
      </p>
    </article>
  );
}
