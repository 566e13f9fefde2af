import { describe, expect, it } from 'vitest';
import { payoutDestinationInputSchema } from '../src/index.js';

const messages = (input: unknown) => {
  const result = payoutDestinationInputSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('payout destination input', () => {
  it("answers missing fields with the form's words, not a type error", () => {
    expect(messages({ method: 'payoneer' })).toEqual(['Please enter a valid e-mail address']);
    expect(messages({ method: 'bank', accountName: 'ADA' })).toEqual([
      'Please choose your bank',
      'Account number must be 10 digits',
    ]);
    expect(messages({ method: 'wise', email: 'a@b.co' })).toEqual([
      'Wise account ID is the number shown in your Wise account',
    ]);
  });

  it('normalises e-mails and refuses methods that are coming soon', () => {
    expect(
      payoutDestinationInputSchema.parse({ method: 'payoneer', email: ' Ada@Example.COM ' }),
    ).toEqual({
      method: 'payoneer',
      email: 'ada@example.com',
    });
    expect(messages({ method: 'paypal', email: 'a@b.co' })).toHaveLength(1);
  });
});
