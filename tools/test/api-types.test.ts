import { readFile } from 'node:fs/promises';
import * as contracts from '@lockdrop/contracts';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_TYPES_FILE, buildApiV1Document, generateApiTypes } from '../api-types.js';
import { apiV1Routes } from '../../services/gateway/src/api-v1/door.js';

/**
 * The typed client (openapi-fetch over libs/contracts/src/api/v1-openapi.d.ts) is only as true as
 * the document: these keep the committed types equal to what the servers' schemas say today, and
 * every operation documented as issue 27 asks (summary, tags, the key's security, examples).
 */
describe('the /api/v1 OpenAPI document and its generated types', () => {
  it('match: the committed d.ts is what `npm run api:types` writes now', async () => {
    const committed = await readFile(API_TYPES_FILE, 'utf8');
    // On a difference: run `npm run api:types` and commit the file with the change.
    expect(await generateApiTypes()).toBe(committed);
  }, 60_000);

  it('shows examples the schemas accept: a script copying one gets no 400 and no surprise', () => {
    const examples = Object.entries(contracts).flatMap(([name, schema]) => {
      if (!name.startsWith('v1') || !(schema instanceof z.ZodType)) return [];
      const meta = z.globalRegistry.get(schema) as { example?: unknown } | undefined;
      return meta?.example === undefined ? [] : [[name, schema, meta.example] as const];
    });
    expect(examples.length).toBeGreaterThanOrEqual(20);
    for (const [name, schema, example] of examples)
      expect(schema.safeParse(example).error?.issues, name).toBeUndefined();
  });

  it('documents every operation with a summary, tags, the API key and examples', async () => {
    const document = await buildApiV1Document();
    const operations = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item ?? {}).map(
        ([method, operation]) =>
          [`${method} ${route}`, operation as OpenAPIV3.OperationObject] as const,
      ),
    );
    expect(operations.length).toBeGreaterThanOrEqual(27);
    for (const [name, operation] of operations) {
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags?.length, name).toBeGreaterThan(0);
      expect(operation.security, name).toEqual([{ apiKey: [] }]);
      const success = Object.entries(operation.responses).filter(([status]) =>
        status.startsWith('2'),
      );
      expect(success.length, name).toBeGreaterThan(0);
      for (const [status, response] of success)
        expect(JSON.stringify(response), `${name} ${status}`).toContain('"example"');
      if (operation.requestBody)
        expect(JSON.stringify(operation.requestBody), `${name} body`).toContain('"example"');
    }
    // Every door the gateway opens to a built resource is in the document.
    const documented = Object.keys(document.paths);
    for (const prefix of [
      '/api/v1/products',
      '/api/v1/files',
      '/api/v1/sales',
      '/api/v1/subscriptions',
      '/api/v1/discount-codes',
      '/api/v1/payouts',
      '/api/v1/balances',
      '/api/v1/analytics',
      '/api/v1/webhook-endpoints',
    ]) {
      expect(apiV1Routes.map((route) => route.prefix)).toContain(prefix);
      expect(
        documented.some((route) => route.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });
});
