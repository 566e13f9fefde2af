import { z } from 'zod';
import { productSchema } from './products.js';

/**
 * Shapes of the public API, `/api/v1` (issue 27). The answers below are those of
 * `Lockdrop-Version: 2026-11-26`; a later version that changes a shape adds its own schema here
 * and the route picks by the request's version.
 */

/** Cursor pagination on every list: `starting_after` an id of the previous page, `limit` ≤ 100. */
export const v1PageQuerySchema = z.strictObject({
  starting_after: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type V1PageQuery = z.infer<typeof v1PageQuerySchema>;

export const v1PageOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

export const v1ProductPageSchema = v1PageOf(productSchema);
export type V1ProductPage = z.infer<typeof v1ProductPageSchema>;

/** One page of `items` (already in list order) after the cursor; an unknown cursor is a 400. */
export function pageAfter<T extends { id: string }>(
  items: T[],
  { starting_after, limit }: V1PageQuery,
): { data: T[]; has_more: boolean } | null {
  let start = 0;
  if (starting_after !== undefined) {
    const index = items.findIndex((item) => item.id === starting_after);
    if (index === -1) return null;
    start = index + 1;
  }
  return { data: items.slice(start, start + limit), has_more: items.length > start + limit };
}
