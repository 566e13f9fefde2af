import { z } from 'zod';

/** The one error shape every route answers with: `{ "error": { "code", "message" } }`. */
export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
    errorId: z.string().optional(),
  }),
});

export const errorResponses = { '4xx': errorSchema, '5xx': errorSchema };
