import { auditedBy } from '../audit/index.js';
import {
  discountCodeInputSchema,
  discountCodeListSchema,
  discountCodeSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { DiscountService } from './discounts.js';
import { errorResponses } from '../../http/error-schema.js';
const security: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
const idParams = z.object({ id: z.uuid() });

/** The signed-in seller's discount codes, with how often each was used and what it brought. */
export function discountRoutes(app: HttpServer, discounts: DiscountService): void {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/discount-codes',
    {
      ...auth,
      config: { storeRight: 'discounts:read' },
      schema: {
        tags: ['discounts'],
        summary: "The seller's discount codes with their uses and revenue",
        security,
        response: { 200: discountCodeListSchema, ...errorResponses },
      },
    },
    async (request) => ({ discountCodes: await discounts.list(request.user!.id) }),
  );

  app.post(
    '/api/discount-codes',
    {
      ...auth,
      config: { storeRight: 'discounts:write' },
      schema: {
        tags: ['discounts'],
        summary: 'Creates a discount code for some or all of the seller’s products',
        security,
        body: discountCodeInputSchema,
        response: { 201: discountCodeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return discounts.create(request.user!.id, request.body, auditedBy(request));
    },
  );

  app.put(
    '/api/discount-codes/:id',
    {
      ...auth,
      config: { storeRight: 'discounts:write' },
      schema: {
        tags: ['discounts'],
        summary: 'Replaces a discount code (turning it off is `active: false`)',
        security,
        params: idParams,
        body: discountCodeInputSchema,
        response: { 200: discountCodeSchema, ...errorResponses },
      },
    },
    async (request) =>
      discounts.update(request.user!.id, request.params.id, request.body, auditedBy(request)),
  );

  app.delete(
    '/api/discount-codes/:id',
    {
      ...auth,
      config: { storeRight: 'discounts:write' },
      schema: {
        tags: ['discounts'],
        summary: 'Deletes a code nobody has used (a used one can be turned off)',
        security,
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await discounts.remove(request.user!.id, request.params.id, auditedBy(request));
      return reply.code(204).send(null);
    },
  );
}
