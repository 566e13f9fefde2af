import { z } from 'zod';

export const planIdSchema = z.enum(['free', 'starter', 'pro', 'business']);
export type PlanId = z.infer<typeof planIdSchema>;

/** ISO 4217 code, upper case. */
export const currencySchema = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code');

/** Money is always an integer count of minor units (cents, kobo) with its currency. */
export const moneySchema = z.object({
  amountMinor: z.number().int(),
  currency: currencySchema,
});

/** What a file is, as delivery detects it and every screen shows it (spec §1: six kinds of file). */
export const fileKindSchema = z.enum(['image', 'pdf', 'video', 'audio', 'document']);
export type FileKind = z.infer<typeof fileKindSchema>;

/** Spec §4: a product is a draft until its seller publishes it. */
export const productStatusSchema = z.enum(['draft', 'published']);
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** How often a recurring price bills (products and plans alike). */
export const billingIntervalSchema = z.enum(['monthly', 'yearly']);
export type BillingInterval = z.infer<typeof billingIntervalSchema>;
