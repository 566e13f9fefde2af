import { Rocket } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { onboardingProgress } from '../lib/progress';
import { onboardingSteps } from '../lib/steps';

/**
 * /dashboard's offer to finish setting up, until the role, a payout destination and a first
 * product all exist. `loaded` holds it back until those facts are known (no flash).
 */
export function ResumeOnboardingNotice({
  loaded,
  destinationSaved,
  hasProduct,
}: {
  loaded: boolean;
  destinationSaved: boolean;
  hasProduct: boolean;
}) {
  const { profile } = useSession();
  if (!loaded || !profile) return null;
  const progress = onboardingProgress({ role: profile.role, destinationSaved, hasProduct });
  if (progress.complete) return null;
  const open = onboardingSteps.filter((_, index) => !progress.done[index]);
  return (
    <section
      aria-labelledby="resume-onboarding"
      className="flex flex-col gap-4 rounded-2xl bg-indigo-50 p-5 ring-1 ring-indigo-200 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <Rocket className="mt-0.5 size-5 flex-none text-indigo-600" aria-hidden="true" />
        <div>
          <h2 id="resume-onboarding" className="font-semibold text-slate-900">
            Finish setting up your account
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {progress.doneCount} of {onboardingSteps.length} steps done. Still to do:{' '}
            {open.join(', ').toLowerCase()}.
          </p>
        </div>
      </div>
      <ButtonLink to={paths.onboarding.getHref()} className="flex-none">
        Resume setup
      </ButtonLink>
    </section>
  );
}
