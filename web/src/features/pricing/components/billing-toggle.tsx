import type { Billing } from '../lib/plan-display';
import { yearlySavings } from '../lib/plan-display';

interface BillingToggleProps {
  billing: Billing;
  onChange: (billing: Billing) => void;
}

const options: { value: Billing; label: string }[] = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
];

export function BillingToggle({ billing, onChange }: BillingToggleProps) {
  return (
    <div
      role="group"
      aria-label="Billing period"
      className="inline-flex rounded-full bg-slate-100 p-1 ring-1 ring-slate-200"
    >
      {options.map((option) => {
        const active = option.value === billing;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(option.value)}
            className={`flex items-center gap-2 rounded-full px-5 py-2 text-sm font-semibold transition ${active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
          >
            {option.label}
            {option.value === 'yearly' && (
              <span
                data-plan-figure="yearly-savings"
                className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800"
              >
                save {yearlySavings}%
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
