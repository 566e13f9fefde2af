import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession, useUpdateProfile, type ProfileChanges, type Role } from '@/features/auth';
import { notify } from '@/lib/toast';
import { onboardingSteps } from '../lib/steps';
import { RoleStep } from './role-step';
import { StepIndicator } from './step-indicator';

const titles = [
  'What brings you to Lockdrop?',
  'How would you like to be paid?',
  'Create your first product',
];

/**
 * /onboarding: the role is saved to the profile; step 2 saves the payout destination at
 * payments (bank accounts verified with the provider) and continues once one is saved; step 3's
 * Complete submits the first-product form (`firstProductFormId`), which the route follows to
 * /dashboard. The payouts and products features' parts come in from the route.
 */
export function OnboardingWizard({
  initialStep = 0,
  payoutDestination,
  destinationSaved,
  firstProduct,
  firstProductFormId,
}: {
  /** Where a seller resuming the setup left off. */
  initialStep?: number;
  payoutDestination: ReactNode;
  destinationSaved: boolean;
  firstProduct: ReactNode;
  firstProductFormId: string;
}) {
  const { profile } = useSession();
  const update = useUpdateProfile();
  const [step, setStep] = useState(initialStep);
  const [role, setRole] = useState<Role | null>(profile?.role ?? null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else headingRef.current?.focus();
  }, [step]);

  const save = (changes: ProfileChanges) =>
    update.mutate(changes, {
      onSuccess: () => setStep((current) => current + 1),
      onError: (error) => notify.error(error, 'Failed to save your choice'),
    });

  function onContinue() {
    if (step === 0 && role) return save({ role });
    if (step === 1 && destinationSaved) setStep(2);
  }

  const canContinue = step === 0 ? role !== null : destinationSaved;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
        Step {step + 1} of {onboardingSteps.length}
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        Set up your account
      </h1>
      <div className="mt-8">
        <StepIndicator current={step} />
      </div>
      <section
        aria-labelledby="onboarding-step"
        className="mt-8 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10"
      >
        <h2
          id="onboarding-step"
          ref={headingRef}
          tabIndex={-1}
          className="mb-6 text-xl font-semibold text-slate-900 focus:outline-none"
        >
          {titles[step]}
        </h2>
        {step === 0 && <RoleStep role={role} onChange={setRole} />}
        {step === 1 && payoutDestination}
        {step === 2 && firstProduct}
        <div className="mt-10 flex items-center justify-between gap-4 border-t border-slate-100 pt-6">
          <Button
            variant="ghost"
            onClick={() => setStep((current) => current - 1)}
            disabled={step === 0 || update.isPending}
          >
            Back
          </Button>
          <div className="flex items-center gap-2">
            {/* Skippable at every step; /dashboard offers to resume until all three are done. */}
            <ButtonLink to={paths.dashboard.root.getHref()} variant="ghost">
              Skip for now
            </ButtonLink>
            {/* Distinct keys: reusing one <button> would turn the clicked Continue into a submit
                button before the browser finishes the click, submitting the empty step-3 form. */}
            {step < 2 ? (
              <Button
                key="continue"
                onClick={onContinue}
                disabled={!canContinue || update.isPending}
              >
                {update.isPending ? 'Saving...' : 'Continue'}
              </Button>
            ) : (
              <Button key="complete" type="submit" form={firstProductFormId}>
                Complete
              </Button>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
