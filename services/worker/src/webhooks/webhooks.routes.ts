import {
  errorBodySchema,
  webhookDeliveryListSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointListSchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '@lockdrop/contracts';
import { requireRecentAuth } from '@lockdrop/auth';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { changeSourceOf } from './audit.js';
import type { WebhookService } from './webhooks.js';

const errorResponses = { '4xx': errorBodySchema, '5xx': errorBodySchema };
const security: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
const idParams = z.object({ id: z.uuid() });
const deliveryParams = z.object({ id: z.string().regex(/^msg_[a-f0-9]{32}$/) });
const tags = ['webhooks'];

/**
 * The dashboard's webhook settings (the signed-in seller's session; `/api/v1` is separate).
 * Showing or rotating a signing secret needs a recent proof of identity (`reauthMaxAgeSeconds`):
 * the secret lets whoever holds it sign the store's webhooks, which a stolen session alone
 * cannot; creating an endpoint shows only the new endpoint's own secret and needs none.
 */
export function webhookRoutes(
  app: HttpServer,
  webhooks: WebhookService,
  { reauthMaxAgeSeconds }: { reauthMaxAgeSeconds: number },
): void {
  // Where the store's events go is its owner's and an admin's (issue 28), not another role's.
  const auth = {
    preHandler: app.authenticate,
    config: { storeRight: 'webhooks:manage' as const },
  };

  app.get(
    '/api/webhook-endpoints',
    {
      ...auth,
      schema: {
        tags,
        summary: "The seller's webhook endpoints (never their signing secrets: see reveal-secret)",
        security,
        response: { 200: webhookEndpointListSchema, ...errorResponses },
      },
    },
    async (request) => ({ endpoints: await webhooks.list(request.user!) }),
  );

  app.post(
    '/api/webhook-endpoints',
    {
      ...auth,
      schema: {
        tags,
        summary:
          'Adds an endpoint: its URL, the events it hears, its mode, and a new whsec_ secret (shown in this answer)',
        security,
        body: webhookEndpointInputSchema,
        response: { 201: webhookEndpointWithSecretSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return webhooks.create(request.user!, request.body, changeSourceOf(request));
    },
  );

  app.patch(
    '/api/webhook-endpoints/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Changes an endpoint (turning it on again clears why it was disabled)',
        security,
        params: idParams,
        body: webhookEndpointPatchSchema,
        response: { 200: webhookEndpointSchema, ...errorResponses },
      },
    },
    async (request) =>
      webhooks.update(request.user!, request.params.id, request.body, changeSourceOf(request)),
  );

  app.delete(
    '/api/webhook-endpoints/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Deletes an endpoint and its delivery log',
        security,
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.user!, request.params.id, changeSourceOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/webhook-endpoints/:id/rotate-secret',
    {
      ...auth,
      schema: {
        tags,
        summary:
          'A new secret (shown in this answer); the old one keeps signing beside it for 24 hours',
        security,
        params: idParams,
        response: { 200: webhookEndpointWithSecretSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireRecentAuth(request, reauthMaxAgeSeconds);
      return webhooks.rotateSecret(request.user!, request.params.id, changeSourceOf(request));
    },
  );

  // A POST, not a GET: showing a secret is an action the seller takes, never a page load, a
  // prefetch or a cached read.
  app.post(
    '/api/webhook-endpoints/:id/reveal-secret',
    {
      ...auth,
      schema: {
        tags,
        summary: "Shows the endpoint's signing secret, at the seller's request",
        security,
        params: idParams,
        response: { 200: webhookEndpointWithSecretSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      requireRecentAuth(request, reauthMaxAgeSeconds);
      reply.header('cache-control', 'no-store');
      return webhooks.revealSecret(request.user!, request.params.id, changeSourceOf(request));
    },
  );

  app.post(
    '/api/webhook-endpoints/:id/test',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Sends a signed `webhook.test` event to the endpoint now',
        security,
        params: idParams,
        response: { 202: webhookDeliverySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return webhooks.sendTest(request.user!, request.params.id);
    },
  );

  app.get(
    '/api/webhook-deliveries',
    {
      ...auth,
      schema: {
        tags,
        summary: 'The delivery log (90 days), newest first, by endpoint and status',
        security,
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryListSchema, ...errorResponses },
      },
    },
    async (request) => ({ deliveries: await webhooks.deliveries(request.user!, request.query) }),
  );

  app.post(
    '/api/webhook-deliveries/:id/redeliver',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Sends a delivery again now, with the same webhook-id',
        security,
        params: deliveryParams,
        response: { 202: webhookDeliverySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return webhooks.redeliver(request.user!, request.params.id);
    },
  );
}
