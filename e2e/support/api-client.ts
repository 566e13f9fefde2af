import type { ApiV1Paths } from '@lockdrop/contracts';
import createClient from 'openapi-fetch';
import { baseUrl } from './browser';

/**
 * A seller's script: the openapi-fetch client typed from the served OpenAPI document
 * (libs/contracts/src/api/v1-openapi.d.ts, written by `npm run api:types`), with one API key.
 */
export function apiClient(secret: string) {
  return createClient<ApiV1Paths>({
    baseUrl,
    headers: { authorization: `Bearer ${secret}` },
  });
}
