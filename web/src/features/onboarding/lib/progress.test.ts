import { describe, expect, it } from 'vitest';
import { onboardingProgress } from './progress';

describe('onboarding progress', () => {
  it('opens at the first step not done, and is complete only with all three', () => {
    expect(
      onboardingProgress({ role: null, destinationSaved: false, hasProduct: false }),
    ).toMatchObject({ doneCount: 0, firstOpenStep: 0, complete: false });
    expect(
      onboardingProgress({ role: 'creator', destinationSaved: false, hasProduct: true }),
    ).toMatchObject({ doneCount: 2, firstOpenStep: 1, complete: false });
    expect(
      onboardingProgress({ role: 'creator', destinationSaved: true, hasProduct: false }),
    ).toMatchObject({ doneCount: 2, firstOpenStep: 2, complete: false });
    expect(
      onboardingProgress({ role: 'agency', destinationSaved: true, hasProduct: true }),
    ).toMatchObject({ doneCount: 3, firstOpenStep: 0, complete: true });
  });
});
