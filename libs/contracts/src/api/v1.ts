import { z } from 'zod';
import { overviewSchema } from './analytics.js';
import { apiKeyModeSchema } from './api-keys.js';
import { createProductSchema, productSchema, updateProductSchema } from './products.js';
import { uploadedFileSchema } from './uploads.js';
import {
  webhookEndpointInputSchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from './webhooks.js';

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

/**
 * A schema with the example the OpenAPI document shows for it (`example`, which OpenAPI 3.0
 * reads on a schema object). Every `/api/v1` operation documents its body and answer this way.
 */
export const withExample = <T extends z.ZodType>(schema: T, example: z.input<T>): T =>
  schema.meta({ example }) as T;

const EXAMPLE_TIME = '2026-11-26T09:30:00.000Z';
const EXAMPLE_FILE_ID = '0b5e4c1a-8f0e-4d8c-9a51-2f0f7d1c6a10';
const EXAMPLE_PRODUCT_ID = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
const EXAMPLE_SELLER_ID = 'a3c9e2f1-7b6d-4c5e-9f8a-1b2c3d4e5f60';

export const v1ProductExample: z.input<typeof productSchema> = {
  id: EXAMPLE_PRODUCT_ID,
  ownerId: EXAMPLE_SELLER_ID,
  title: 'Lagos street photography presets',
  description: 'Twelve Lightroom presets.',
  priceMinor: 1500,
  currency: 'USD',
  price: '15.00',
  priceFormatted: '$15.00',
  pricing: { type: 'one_time' },
  payWhatYouWant: null,
  status: 'draft',
  fileId: EXAMPLE_FILE_ID,
  fileName: 'presets-guide.pdf',
  fileSizeBytes: 482133,
  fileKind: 'pdf',
  files: [
    { fileId: EXAMPLE_FILE_ID, fileName: 'presets-guide.pdf', sizeBytes: 482133, kind: 'pdf' },
  ],
  buyersToldAt: null,
  previewEnabled: false,
  previewBlurPercentage: 50,
  stampPdfs: false,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
  publishedAt: null,
};

export const v1ProductSchema = withExample(productSchema, v1ProductExample);

export const v1ProductPageSchema = withExample(v1PageOf(productSchema), {
  object: 'list',
  data: [v1ProductExample],
  has_more: false,
});
export type V1ProductPage = z.infer<typeof v1ProductPageSchema>;

/**
 * POST /api/v1/products: the dashboard's create (a draft from one of the seller's files, uploaded
 * with POST /api/v1/files), strict: an unknown field is a 400 rather than silently dropped.
 */
export const v1CreateProductSchema = withExample(createProductSchema.strict(), {
  title: 'Lagos street photography presets',
  description: 'Twelve Lightroom presets.',
  price: '15.00',
  currency: 'USD',
  fileId: EXAMPLE_FILE_ID,
  pricing: { type: 'one_time' },
});
export type V1CreateProduct = z.input<typeof v1CreateProductSchema>;

/** PATCH /api/v1/products/:id: the dashboard's edit; `files` is the whole new file list. */
export const v1UpdateProductSchema = withExample(updateProductSchema.strict(), {
  price: '12.00',
  files: [{ fileId: EXAMPLE_FILE_ID }],
});

/** POST /api/v1/files: the stored file (a product takes it by `fileId`). */
export const v1FileSchema = withExample(uploadedFileSchema.extend({ object: z.literal('file') }), {
  object: 'file',
  id: EXAMPLE_FILE_ID,
  fileName: 'presets-guide.pdf',
  sizeBytes: 482133,
  contentType: 'application/pdf',
  sha256: 'b1946ac92492d2347c6235b4d2611184b1946ac92492d2347c6235b4d2611184',
  kind: 'pdf',
  createdAt: EXAMPLE_TIME,
});
export type V1File = z.infer<typeof v1FileSchema>;

/**
 * POST /api/v1/files: the stored file and the product it was added to (null when the upload
 * named none). GET /api/v1/files/:fileId answers `v1FileSchema`.
 */
export const v1UploadedFileSchema = withExample(
  uploadedFileSchema.extend({ object: z.literal('file'), productId: z.uuid().nullable() }),
  {
    object: 'file',
    id: EXAMPLE_FILE_ID,
    fileName: 'presets-guide.pdf',
    sizeBytes: 482133,
    contentType: 'application/pdf',
    sha256: 'b1946ac92492d2347c6235b4d2611184b1946ac92492d2347c6235b4d2611184',
    kind: 'pdf',
    createdAt: EXAMPLE_TIME,
    productId: EXAMPLE_PRODUCT_ID,
  },
);
export type V1UploadedFile = z.infer<typeof v1UploadedFileSchema>;

/**
 * POST /api/v1/files, as documented: an optional `productId` part, then one part named `file`.
 * (Delivery streams it; the schema allows none because no parsed body ever reaches validation:
 * fastify sees null.)
 */
export const v1FileUploadSchema = withExample(
  z.object({
    productId: z
      .uuid()
      .optional()
      .meta({
        description:
          'Add the file to this product of yours (appended to its files). Send it before `file`: ' +
          'it is checked before the upload is read.',
      }),
    file: z.string().meta({ format: 'binary', description: 'The file’s bytes' }),
  }),
  { productId: EXAMPLE_PRODUCT_ID, file: '(the bytes of presets-guide.pdf)' },
).nullish();

const metricExample = { value: 42, previous: 30, changePercent: 40 };

/**
 * GET /api/v1/analytics/overview: the dashboard's figures for the key's mode. A live key sees the
 * live figures (test sales are in none of them); a test key sees its test sales in `sales`,
 * `refunds` and `revenue` (gross only: a test sale earns nothing, so earnings, refunded and net
 * amounts are null). Views, visitors, checkouts and downloads are the same for both.
 */
export const v1AnalyticsOverviewSchema = withExample(
  overviewSchema.omit({ testSales: true, revenue: true }).extend({
    object: z.literal('analytics_overview'),
    mode: apiKeyModeSchema,
    revenue: z.array(
      z.object({
        currency: z.string(),
        grossMinor: z.number().int(),
        earningsMinor: z.number().int().nullable(),
        refundedMinor: z.number().int().nullable(),
        netMinor: z.number().int().nullable(),
        previousNetMinor: z.number().int().nullable(),
        changePercent: z.number().nullable(),
      }),
    ),
  }),
  {
    object: 'analytics_overview',
    mode: 'live',
    days: 30,
    from: '2026-10-28',
    to: '2026-11-26',
    revenue: [
      {
        currency: 'USD',
        grossMinor: 63000,
        earningsMinor: 60795,
        refundedMinor: 1500,
        netMinor: 59295,
        previousNetMinor: 43000,
        changePercent: 37.9,
      },
    ],
    views: { value: 1200, previous: 900, changePercent: 33.3 },
    uniqueVisitors: { value: 800, previous: 610, changePercent: 31.1 },
    checkoutsStarted: { value: 60, previous: 41, changePercent: 46.3 },
    sales: metricExample,
    refunds: { value: 1, previous: 0, changePercent: null },
    downloads: { value: 51, previous: 33, changePercent: 54.5 },
    unlockRate: { value: 5.3, previous: 4.9, changePercent: 8.2 },
  },
);
export type V1AnalyticsOverview = z.infer<typeof v1AnalyticsOverviewSchema>;

const webhookEndpointExample = {
  object: 'webhook_endpoint' as const,
  id: '3e7c1b2a-5d4f-4e6a-8b9c-0d1e2f3a4b5c',
  url: 'https://example.com/hooks/lockdrop',
  description: 'Books',
  events: ['sale.created' as const, 'sale.refunded' as const],
  enabled: true,
  mode: 'live' as const,
  disabledReason: null,
  previousSecretExpiresAt: null,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

/** A seller's webhook endpoint through the API: the signing secret is shown once, on creation. */
export const v1WebhookEndpointSchema = withExample(
  webhookEndpointSchema.extend({ object: z.literal('webhook_endpoint') }),
  webhookEndpointExample,
);
export type V1WebhookEndpoint = z.infer<typeof v1WebhookEndpointSchema>;

/** POST /api/v1/webhook-endpoints: the new endpoint and its `whsec_…` secret, never shown again. */
export const v1CreatedWebhookEndpointSchema = withExample(
  webhookEndpointWithSecretSchema.extend({ object: z.literal('webhook_endpoint') }),
  { ...webhookEndpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7o3ktNLHBx8=' },
);

export const v1WebhookEndpointPageSchema = withExample(v1PageOf(v1WebhookEndpointSchema), {
  object: 'list',
  data: [webhookEndpointExample],
  has_more: false,
});

/** The key's mode is the endpoint's: a test key makes test endpoints (no `mode` field here). */
export const v1WebhookEndpointInputSchema = withExample(
  webhookEndpointInputSchema.omit({ mode: true }).strict(),
  {
    url: 'https://example.com/hooks/lockdrop',
    events: ['sale.created', 'sale.refunded'],
    description: 'Books',
  },
);

export const v1WebhookEndpointPatchSchema = withExample(webhookEndpointPatchSchema, {
  enabled: false,
});

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
