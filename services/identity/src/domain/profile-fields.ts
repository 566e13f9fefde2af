import { z } from 'zod';

/** Onboarding roles (spec §3). */
export const profileRoleSchema = z.enum(['freelancer', 'agency', 'creator', 'business']);
export type ProfileRole = z.infer<typeof profileRoleSchema>;

const text = (label: string, max = 120) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} is too long`);

/**
 * Payout methods offered at onboarding (spec §3). PayPal and Stripe are "coming soon" there,
 * so they are not accepted here either.
 */
export const payoutDetailsSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('bank'),
    bankName: text('Bank name'),
    accountNumber: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z -]{4,34}$/, 'Account number must be 4-34 letters or digits'),
    accountHolderName: text('Account holder name'),
  }),
  z.strictObject({
    method: z.literal('payoneer'),
    email: z.email('Please enter a valid e-mail address'),
  }),
  z.strictObject({
    method: z.literal('wise'),
    email: z.email('Please enter a valid e-mail address'),
    accountId: text('Wise account ID', 64),
  }),
]);
export type PayoutDetails = z.infer<typeof payoutDetailsSchema>;

export const fullNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your full name')
  .max(100, 'Please keep your name under 100 characters');

export const avatarUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Avatar must be an http(s) URL' })
  .max(2048, 'Avatar URL is too long');
