import { z } from 'zod';

/** GET /api/uploads/usage (delivery): this calendar month's uploads against the plan's allowance. */
export const uploadUsageSchema = z.object({
  plan: z.string(),
  used: z.number().int().nonnegative(),
  /** null: the plan has no monthly limit. */
  limit: z.number().int().positive().nullable(),
  resetsAt: z.string(),
});
export type UploadUsage = z.infer<typeof uploadUsageSchema>;
