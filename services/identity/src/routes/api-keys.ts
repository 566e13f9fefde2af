import {
  apiKeyIntrospectionRequestSchema,
  apiKeyIntrospectionSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  type ApiKey,
} from '@lockdrop/contracts';
import { assertRecentAuth } from '@lockdrop/auth';
import type { HttpServer } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiKeyRecord } from '../db/api-keys.repo.js';
import type { ApiKeyService, KeyActor } from '../domain/api-keys.js';
import { sessionOf, storeOf, type SessionGuard } from './current-session.js';
import { clientOf } from './http.js';

function presentApiKey(key: ApiKeyRecord): ApiKey {
  return {
    id: key.id,
    name: key.name,
    mode: key.mode,
    prefix: key.prefix,
    scopes: key.scopes,
    apiVersion: key.apiVersion,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: key.lastUsedIp,
  };
}

/** The seller's keys, managed from a signed-in session (settings), never with a key. */
export function apiKeyRoutes(
  app: HttpServer,
  {
    apiKeys,
    guard,
    reauthMaxAgeSeconds,
  }: { apiKeys: ApiKeyService; guard: SessionGuard; reauthMaxAgeSeconds: number },
): void {
  const tags = ['api-keys'];
  // A key speaks for the whole store: the store's owner and admins manage its keys (issue 28),
  // and a key one of them makes is the store's (`storeOf`), listed and revoked by any of them.
  const preHandler = guard.requireStoreRight('api-keys:manage');
  const byOf = (request: FastifyRequest): KeyActor => ({
    personId: sessionOf(request).userId,
    client: clientOf(request),
  });

  app.get(
    '/api/auth/api-keys',
    { schema: { tags, response: { 200: apiKeyListSchema } }, preHandler },
    async (request) => ({
      apiKeys: (await apiKeys.list(storeOf(sessionOf(request)))).map(presentApiKey),
    }),
  );

  app.post(
    '/api/auth/api-keys',
    {
      schema: { tags, body: createApiKeyRequestSchema, response: { 201: createdApiKeySchema } },
      preHandler,
    },
    async (request, reply) => {
      // A key outlives the session that makes it: a stolen session must not turn itself into one.
      assertRecentAuth(sessionOf(request).authTime.getTime() / 1000, reauthMaxAgeSeconds);
      const created = await apiKeys.create(
        storeOf(sessionOf(request)),
        request.body,
        byOf(request),
      );
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({ apiKey: presentApiKey(created.apiKey), secret: created.secret });
    },
  );

  app.delete(
    '/api/auth/api-keys/:keyId',
    { schema: { tags, params: z.object({ keyId: z.uuid() }) }, preHandler },
    async (request, reply) => {
      await apiKeys.revoke(
        storeOf(sessionOf(request)),
        request.params.keyId,
        request.id,
        byOf(request),
      );
      return reply.status(204).send();
    },
  );
}

/**
 * The gateway's introspection. Under /internal, which the gateway's route table never forwards:
 * only processes inside the cluster reach it. It answers only to a valid key, so it grants
 * nothing the key itself does not.
 */
export function apiKeyIntrospectionRoutes(
  app: HttpServer,
  { apiKeys }: { apiKeys: ApiKeyService },
): void {
  app.post(
    '/internal/api-keys/introspect',
    {
      schema: {
        tags: ['internal'],
        hide: true,
        body: apiKeyIntrospectionRequestSchema,
        response: { 200: apiKeyIntrospectionSchema },
      },
    },
    async (request) => apiKeys.introspect(request.body.key, clientOf(request).ip),
  );
}
