import { errorBodySchema } from '@lockdrop/contracts';

/** The one error shape every route answers with (libs/contracts): `{ "error": { "code", "message" } }`. */
export const errorSchema = errorBodySchema;

export const errorResponses = { '4xx': errorSchema, '5xx': errorSchema };
