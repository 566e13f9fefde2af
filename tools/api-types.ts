/**
 * `npm run api:types`: the typed client's source. It builds the `/api/v1` part of the OpenAPI
 * document /api/docs serves — each owning service's v1 routes registered, with their zod schemas,
 * on a bare server of the shared factory (no database, bus or port: handlers never run), merged
 * by the gateway's own `mergeDocuments` — and writes its types with openapi-typescript to
 * libs/contracts/src/api/v1-openapi.d.ts, which openapi-fetch clients take
 * (`createClient<paths>()`). tools/test/api-types.test.ts regenerates it and fails on any
 * difference, so the committed client cannot drift from the servers.
 *
 * A service that adds `/api/v1` routes adds its registrar to DOCUMENTED below.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authPlugin } from '@lockdrop/auth';
import { createHttpServer, type HttpServer } from '@lockdrop/http';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import type { OpenAPIV3 } from 'openapi-types';
import { apiV1AnalyticsRoutes } from '../services/analytics/src/routes/api-v1-analytics.js';
import { apiV1ProductRoutes } from '../services/catalog/src/routes/api-v1-products.js';
import { uploadRoutes } from '../services/delivery/src/routes/uploads.js';
import { mergeDocuments } from '../services/gateway/src/routes/api-docs.js';
import { apiV1MoneyRoutes } from '../services/payments/src/modules/api-v1/index.js';
import { apiV1WebhookRoutes } from '../services/worker/src/webhooks/webhooks.api-v1.routes.js';

export const API_TYPES_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'libs/contracts/src/api/v1-openapi.d.ts',
);

/** Handlers never run here: only the routes' schemas are read. */
const unused = {} as never;

/** Each `/api/v1` owner's routes, as its app registers them (apiV1Routes in the gateway's door). */
const DOCUMENTED: [service: string, register: (app: HttpServer) => void][] = [
  ['catalog', (app) => apiV1ProductRoutes(app, unused)],
  [
    'delivery',
    (app) => uploadRoutes(app, { uploads: unused, stampedCopies: unused, attachments: unused }),
  ],
  [
    'payments',
    (app) =>
      apiV1MoneyRoutes(app, {
        refunds: unused,
        renewals: unused,
        discounts: unused,
        payouts: unused,
      }),
  ],
  ['analytics', (app) => apiV1AnalyticsRoutes(app, unused)],
  ['worker', (app) => apiV1WebhookRoutes(app, unused)],
];

async function documentOf(
  service: string,
  register: (app: HttpServer) => void,
): Promise<OpenAPIV3.Document> {
  const app = await createHttpServer({ name: service, logLevel: 'silent' });
  await app.register(authPlugin, {
    verifier: {
      verify: () => Promise.reject(new Error('documentation only')),
    },
  });
  register(app);
  await app.ready();
  const document = app.swagger() as OpenAPIV3.Document;
  await app.close();
  return document;
}

/** The merged document's `/api/v1` operations (and every schema and security scheme). */
export async function buildApiV1Document(): Promise<OpenAPIV3.Document> {
  const merged = mergeDocuments(
    await Promise.all(
      DOCUMENTED.map(
        async ([service, register]) =>
          [service, await documentOf(service, register)] as [string, OpenAPIV3.Document],
      ),
    ),
  );
  merged.paths = Object.fromEntries(
    Object.entries(merged.paths)
      .filter(([route]) => route.startsWith('/api/v1/'))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  merged.info = { title: 'Lockdrop API v1', version: '2026-11-26' };
  return merged;
}

/** The d.ts text for the document. */
export async function generateApiTypes(): Promise<string> {
  const document = await buildApiV1Document();
  const ast = await openapiTS(document as never, { alphabetize: true });
  return `${COMMENT_HEADER.replace(
    'Do not make direct changes to the file.',
    'Do not make direct changes to the file: run `npm run api:types`.',
  )}${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await writeFile(API_TYPES_FILE, await generateApiTypes());
  console.log(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
}
