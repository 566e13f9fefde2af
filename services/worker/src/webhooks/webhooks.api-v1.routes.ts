import {
  errorBodySchema,
  pageAfter,
  v1CreatedWebhookEndpointSchema,
  v1PageQuerySchema,
  v1WebhookEndpointInputSchema,
  v1WebhookEndpointPageSchema,
  v1WebhookEndpointPatchSchema,
  v1WebhookEndpointSchema,
  withExample,
  type WebhookEndpoint,
} from '@lockdrop/contracts';
import { AppError, type HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { changeSourceOf } from './audit.js';
import type { WebhookService } from './webhooks.js';

const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};
const security = [{ apiKey: [] }];
const tags = ['v1: webhook endpoints'];
const idParams = z.object({ id: z.uuid() });

/** An endpoint as the API shows it after creation (the service never reads out its secret). */
function asResource(endpoint: WebhookEndpoint) {
  return { object: 'webhook_endpoint' as const, ...endpoint };
}

/**
 * `/api/v1/webhook-endpoints`: the dashboard's endpoints (the same service, so the same rules and
 * ownership) for an API key, of the key's mode only: a test key makes test endpoints and never
 * sees a live one. The secret is in the creation's answer only: a key that can read endpoints
 * later (`webhooks:read`) cannot lift the secret that proves deliveries are ours.
 */
export function apiV1WebhookRoutes(app: HttpServer, webhooks: WebhookService): void {
  const read = { preHandler: app.requireApiScope('webhooks:read') };
  const write = { preHandler: app.requireApiScope('webhooks:write') };

  app.get(
    '/api/v1/webhook-endpoints',
    {
      ...read,
      schema: {
        summary: "List the seller's webhook endpoints, oldest first",
        tags,
        security,
        querystring: v1PageQuerySchema,
        response: { 200: v1WebhookEndpointPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      // A seller has a handful of endpoints: paged in memory.
      const page = pageAfter(await webhooks.list(request.user!), request.query);
      if (!page)
        throw new AppError('invalid_cursor', 400, 'starting_after names no endpoint of yours');
      return {
        object: 'list' as const,
        data: page.data.map(asResource),
        has_more: page.has_more,
      };
    },
  );

  app.post(
    '/api/v1/webhook-endpoints',
    {
      ...write,
      schema: {
        summary: 'Create a webhook endpoint; the answer shows its signing secret, once',
        description:
          'Deliveries are signed by the Standard Webhooks spec with the `whsec_…` secret in this ' +
          'answer; it is not shown again (reveal or rotate it in the dashboard if lost). The ' +
          "endpoint has the key's mode: a test key's endpoints hear only test-mode sales, " +
          'subscriptions and payouts, a live key’s only live ones; product events reach both.',
        tags,
        security,
        body: v1WebhookEndpointInputSchema,
        response: { 201: v1CreatedWebhookEndpointSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const endpoint = await webhooks.create(request.user!, request.body, changeSourceOf(request));
      return reply.code(201).send({ object: 'webhook_endpoint' as const, ...endpoint });
    },
  );

  app.get(
    '/api/v1/webhook-endpoints/:id',
    {
      ...read,
      schema: {
        summary: 'Retrieve one of the seller’s webhook endpoints',
        tags,
        security,
        params: idParams,
        response: { 200: v1WebhookEndpointSchema, ...errorResponses },
      },
    },
    async (request) => asResource(await webhooks.get(request.user!, request.params.id)),
  );

  app.patch(
    '/api/v1/webhook-endpoints/:id',
    {
      ...write,
      schema: {
        summary: 'Update a webhook endpoint (turning it on again clears why it was disabled)',
        tags,
        security,
        params: idParams,
        body: v1WebhookEndpointPatchSchema,
        response: { 200: v1WebhookEndpointSchema, ...errorResponses },
      },
    },
    async (request) =>
      asResource(
        await webhooks.update(
          request.user!,
          request.params.id,
          request.body,
          changeSourceOf(request),
        ),
      ),
  );

  app.delete(
    '/api/v1/webhook-endpoints/:id',
    {
      ...write,
      schema: {
        summary: 'Delete a webhook endpoint and its delivery log',
        tags,
        security,
        params: idParams,
        response: {
          204: withExample(z.null(), null).describe('Deleted'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.user!, request.params.id, changeSourceOf(request));
      return reply.code(204).send(null);
    },
  );
}
