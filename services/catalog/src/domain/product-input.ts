import { z } from 'zod';

/**
 * Request shapes. Title, price and file are optional here on purpose: their absence is a domain
 * error with the spec's message ('Please fill in all required fields', 'Please upload a file for
 * your product'), not a generic validation failure.
 */
export const pricingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('one_time') }),
  z.object({ type: z.literal('recurring'), interval: z.enum(['monthly', 'yearly']) }),
]);

const priceSchema = z.union([z.string().max(32), z.number()]);
const blurSchema = z.number().int().min(0).max(100).multipleOf(5);

export const createProductSchema = z.object({
  title: z.string().max(200).optional(),
  description: z.string().max(5000).nullish(),
  price: priceSchema.nullish(),
  currency: z.string().max(8).optional(),
  fileId: z.string().max(64).nullish(),
  previewEnabled: z.boolean().default(false),
  previewBlurPercentage: blurSchema.default(50),
  pricing: pricingSchema.default({ type: 'one_time' }),
});
export type CreateProductInput = z.infer<typeof createProductSchema>;

export const updateProductSchema = z.object({
  title: z.string().max(200).optional(),
  description: z.string().max(5000).nullish(),
  price: priceSchema.nullish(),
  currency: z.string().max(8).optional(),
  fileId: z.string().max(64).nullish(),
  previewEnabled: z.boolean().optional(),
  previewBlurPercentage: blurSchema.optional(),
  pricing: pricingSchema.optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductSchema>;

export { productStatusSchema } from '@lockdrop/contracts';
