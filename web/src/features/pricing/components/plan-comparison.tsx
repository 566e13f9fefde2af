import { formatMoney } from '@lockdrop/money';
import { PLANS, formatBps, formatFileSize, type Plan } from '@lockdrop/plans';
import { Check, Minus } from 'lucide-react';
import type { ReactNode } from 'react';

const yes = (
  <>
    <Check className="mx-auto size-5 text-indigo-600" aria-hidden="true" />
    <span className="sr-only">Included</span>
  </>
);
const no = (
  <>
    <Minus className="mx-auto size-5 text-slate-300" aria-hidden="true" />
    <span className="sr-only">Not included</span>
  </>
);

const rows: { label: string; value: (plan: Plan) => ReactNode }[] = [
  { label: 'Monthly price', value: (p) => formatMoney(p.monthlyPriceMinor, p.currency) },
  { label: 'Yearly price', value: (p) => formatMoney(p.yearlyPriceMinor, p.currency) },
  {
    label: 'Uploads per month',
    value: (p) => (p.uploadsPerMonth === null ? 'Unlimited' : p.uploadsPerMonth),
  },
  { label: 'Platform fee per sale', value: (p) => formatBps(p.platformFeeBps) },
  { label: 'Max file size', value: (p) => formatFileSize(p.maxFileBytes) },
  { label: 'Analytics', value: (p) => p.analytics[0]?.toUpperCase() + p.analytics.slice(1) },
  { label: 'Custom branding', value: (p) => (p.customBranding ? yes : no) },
  {
    label: 'Team members',
    value: (p) =>
      p.teamSeats === null ? 'Unlimited' : p.teamSeats === 0 ? no : `Up to ${p.teamSeats}`,
  },
  { label: 'Custom domain', value: (p) => (p.customDomain ? yes : no) },
  { label: 'API access', value: (p) => (p.apiAccess ? yes : no) },
];

export function PlanComparison() {
  return (
    <div
      role="region"
      aria-label="Plan comparison table"
      tabIndex={0}
      className="relative overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Plan comparison</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="px-5 py-4 font-semibold text-slate-900">
              Compare plans
            </th>
            {PLANS.map((plan) => (
              <th
                key={plan.id}
                scope="col"
                className="px-5 py-4 text-center font-semibold text-slate-900"
              >
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="px-5 py-3.5 font-medium text-slate-700">
                {row.label}
              </th>
              {PLANS.map((plan) => (
                <td
                  key={plan.id}
                  data-plan={plan.id}
                  className="px-5 py-3.5 text-center text-slate-900 tabular-nums"
                >
                  {row.value(plan)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
