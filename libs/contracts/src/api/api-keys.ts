import { z } from 'zod';

/**
 * Seller API keys (issue 27, ARCHITECTURE §3a). Identity owns them; the gateway trades a key for a
 * short-lived internal access token that carries these scopes and the key's mode.
 */
export const apiKeyScopeSchema = z.enum([
  'products:read',
  'products:write',
  'files:write',
  'sales:read',
  'refunds:write',
  'subscriptions:read',
  'subscriptions:write',
  'discounts:read',
  'discounts:write',
  'payouts:read',
  'webhooks:read',
  'webhooks:write',
  'analytics:read',
]);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;
export const API_KEY_SCOPES = apiKeyScopeSchema.options;

/** A live key acts on real money; a test key sees and makes only test-mode (sandbox) data. */
export const apiKeyModeSchema = z.enum(['live', 'test']);
export type ApiKeyMode = z.infer<typeof apiKeyModeSchema>;

/**
 * `Lockdrop-Version` values the API knows, oldest first. A key is pinned to the newest at its
 * creation; a request may name another known one.
 */
export const API_VERSIONS = ['2026-11-26'] as const;
export const apiVersionSchema = z.enum(API_VERSIONS);
export type ApiVersion = z.infer<typeof apiVersionSchema>;
export const LATEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

/**
 * `ld_live_` / `ld_test_` and 40 base62 characters (≈238 random bits), no checksum: a fixed,
 * distinctive shape that secret scanners (GitHub push protection, trufflehog) match with this
 * one expression.
 */
export const API_KEY_PATTERN = /^ld_(live|test)_[0-9A-Za-z]{40}$/;

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  mode: apiKeyModeSchema,
  /** The key's first characters (`ld_live_AbC1`), so a seller can tell keys apart. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  apiVersion: apiVersionSchema,
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ apiKeys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** POST /api/auth/api-keys. */
export const createApiKeyRequestSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Please name the key')
    .max(100, 'Keep the name under 100 characters'),
  mode: apiKeyModeSchema,
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1, 'Choose at least one scope')
    .transform((scopes) => [...new Set(scopes)].sort()),
  expiresAt: z.iso.datetime().nullable().optional(),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** The one answer that carries the secret: it is never shown again. */
export const createdApiKeySchema = z.object({ apiKey: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** Identity's internal introspection (gateway only): the key in, the internal token out. */
export const apiKeyIntrospectionRequestSchema = z.strictObject({ key: z.string().max(200) });
export const apiKeyIntrospectionSchema = z.object({
  keyId: z.uuid(),
  sellerId: z.uuid(),
  mode: apiKeyModeSchema,
  scopes: z.array(apiKeyScopeSchema),
  apiVersion: apiVersionSchema,
  /** Internal access token for this key; valid a few minutes, longer than the gateway caches it. */
  accessToken: z.string(),
  accessExpiresAt: z.iso.datetime(),
});
export type ApiKeyIntrospection = z.infer<typeof apiKeyIntrospectionSchema>;
