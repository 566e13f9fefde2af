import { z } from 'zod';

/** Onboarding roles (spec §3). */
export { profileRoleSchema, type ProfileRole } from '@lockdrop/contracts';

/**
 * Which payout method the seller chose (spec §3). The details themselves live with payments,
 * encrypted; PayPal and Stripe are "coming soon" and not accepted.
 */
export { payoutMethodSchema, type PayoutMethod } from '@lockdrop/contracts';

export const fullNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your full name')
  .max(100, 'Please keep your name under 100 characters');

export const avatarUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Avatar must be an http(s) URL' })
  .max(2048, 'Avatar URL is too long');
