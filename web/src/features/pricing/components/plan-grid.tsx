import { PLANS } from '@lockdrop/plans';
import type { Billing, ChoosePlan } from '../lib/plan-display';
import { PlanCard } from './plan-card';

export function PlanGrid({ billing, choosePlan }: { billing: Billing; choosePlan: ChoosePlan }) {
  return (
    <div className="mx-auto grid max-w-md gap-6 md:max-w-none md:grid-cols-2 xl:grid-cols-4">
      {PLANS.map((plan) => (
        <PlanCard key={plan.id} plan={plan} billing={billing} choosePlan={choosePlan} />
      ))}
    </div>
  );
}
