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

/**
 * One page from a keyset query that fetched `limit + 1` rows after the cursor (the extra row only
 * says there is more): `WHERE owner = $me AND (created_at, id) < (SELECT created_at, id FROM …
 * WHERE id = $cursor AND owner = $me) ORDER BY created_at DESC, id DESC LIMIT $limit + 1`. A cursor
 * that names none of the caller's rows is a 400 `invalid_cursor` (check it before paging).
 */
export function pageOfRows<T>(rows: T[], limit: number): { data: T[]; has_more: boolean } {
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}
