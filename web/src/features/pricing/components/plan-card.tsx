import { planFeatureLines, type Plan } from '@lockdrop/plans';
import { Check } from 'lucide-react';
import { planPrice, planTaglines, type Billing, type ChoosePlan } from '../lib/plan-display';

interface PlanCardProps {
  plan: Plan;
  billing: Billing;
  choosePlan: ChoosePlan;
}

export function PlanCard({ plan, billing, choosePlan }: PlanCardProps) {
  const headingId = `plan-${plan.id}-${billing}`;
  return (
    <article
      aria-labelledby={headingId}
      data-plan={plan.id}
      className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ${plan.popular ? 'ring-2 ring-indigo-600 lg:scale-[1.02]' : 'ring-slate-200'}`}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">
          Popular
        </p>
      )}
      <h3 id={headingId} className="text-lg font-semibold text-slate-900">
        {plan.name}
      </h3>
      <p className="mt-1 min-h-10 text-sm text-slate-600">{planTaglines[plan.id]}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span
          data-plan-figure="price"
          data-billing={billing}
          className="text-4xl font-bold tracking-tight text-slate-900"
        >
          {planPrice(plan, billing)}
        </span>
        <span className="text-sm font-medium text-slate-500">
          /{billing === 'monthly' ? 'month' : 'year'}
        </span>
      </p>
      {/* Visitors sign up first; signed-in sellers pay for the plan right here. */}
      <div className="mt-6">{choosePlan(plan, billing)}</div>
      <ul className="mt-6 space-y-3 text-sm text-slate-700">
        {planFeatureLines(plan).map((line) => (
          <li key={line} className="flex gap-3">
            <Check className="mt-0.5 size-4 flex-none text-indigo-600" aria-hidden="true" />
            <span data-plan-figure="feature">{line}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
