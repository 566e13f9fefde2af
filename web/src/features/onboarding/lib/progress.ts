import type { Role } from '@/features/auth';
import { onboardingSteps } from './steps';

/** What a seller has done of the three steps, from what is stored (nothing onboarding-only is kept). */
export interface OnboardingFacts {
  role: Role | null | undefined;
  destinationSaved: boolean;
  hasProduct: boolean;
}

export interface OnboardingProgress {
  done: boolean[];
  doneCount: number;
  /** The step to open: the first not done (0 once everything is). */
  firstOpenStep: number;
  complete: boolean;
}

export function onboardingProgress({
  role,
  destinationSaved,
  hasProduct,
}: OnboardingFacts): OnboardingProgress {
  const done = [Boolean(role), destinationSaved, hasProduct];
  const firstOpen = done.indexOf(false);
  return {
    done,
    doneCount: done.filter(Boolean).length,
    firstOpenStep: firstOpen === -1 ? 0 : firstOpen,
    complete: firstOpen === -1 && done.length === onboardingSteps.length,
  };
}
