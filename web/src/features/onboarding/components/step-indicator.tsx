import { Check } from 'lucide-react';
import { onboardingSteps } from '../lib/steps';

/**
 * Where the person is in the three steps; the current one is announced as the current step.
 * On a phone each label sits under its number (hidden before, issue 29), with no connector.
 */
export function StepIndicator({ current }: { current: number }) {
  return (
    <ol className="flex items-center gap-2 sm:gap-4" aria-label="Onboarding progress">
      {onboardingSteps.map((label, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'upcoming';
        return (
          <li
            key={label}
            className="flex flex-1 flex-col items-center gap-1 text-center sm:flex-row sm:gap-2 sm:text-left"
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span
              className={`flex size-8 flex-none items-center justify-center rounded-full text-sm font-semibold ${state === 'done' ? 'bg-indigo-600 text-white' : state === 'current' ? 'bg-white text-indigo-700 ring-2 ring-indigo-600' : 'bg-white text-slate-500 ring-1 ring-slate-300'}`}
            >
              {state === 'done' ? <Check className="size-4" aria-hidden="true" /> : index + 1}
            </span>
            <span
              className={`text-xs font-medium sm:text-sm ${state === 'upcoming' ? 'text-slate-500' : 'text-slate-900'}`}
            >
              {label}
              <span className="sr-only">{state === 'done' ? ' (done)' : ''}</span>
            </span>
            {index < onboardingSteps.length - 1 && (
              <span className="hidden h-px flex-1 bg-slate-200 sm:block" aria-hidden="true" />
            )}
          </li>
        );
      })}
    </ol>
  );
}
