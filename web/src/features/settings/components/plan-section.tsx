import { PLANS } from '@lockdrop/plans';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { SettingsCard } from './settings-card';

/** Read-only: plans change through billing, never from the profile. */
export function PlanSection() {
  const { user } = useSession();
  const plan = PLANS.find((candidate) => candidate.id === user?.plan) ?? PLANS[0];
  return (
    <SettingsCard id="settings-plan" title="Plan">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-sm text-slate-600">Current plan</p>
          <p className="text-2xl font-bold text-slate-900" data-plan={plan?.id}>
            {plan?.name}
          </p>
        </div>
        <ButtonLink to={paths.pricing.getHref()} variant="secondary">
          Compare plans
        </ButtonLink>
      </div>
    </SettingsCard>
  );
}
