import type { HttpServer } from '@lockdrop/http';
import { errors } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Analytics } from '../domain/analytics.js';
import {
  daysQuery,
  dailySchema,
  errorResponses,
  overviewSchema,
  productFiguresListSchema,
} from './schemas.js';

const secured: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

function sellerIdOf(request: FastifyRequest): string {
  if (!request.user) throw errors.unauthorized('Auth session missing!');
  return request.user.id;
}

export function analyticsRoutes(app: HttpServer, analytics: Analytics): void {
  app.get(
    '/api/analytics/overview',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'analytics:read' },
      schema: {
        summary: "The signed-in seller's figures over the last `days` days and the period before",
        tags: ['analytics'],
        security: secured,
        querystring: daysQuery,
        response: { 200: overviewSchema, ...errorResponses },
      },
    },
    async (request) => analytics.overview(sellerIdOf(request), request.query.days),
  );

  app.get(
    '/api/analytics/products',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'analytics:read' },
      schema: {
        summary: 'Totals per product of the signed-in seller over the last `days` days',
        tags: ['analytics'],
        security: secured,
        querystring: daysQuery,
        response: { 200: productFiguresListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      products: await analytics.products(sellerIdOf(request), request.query.days),
    }),
  );

  app.get(
    '/api/analytics/products/:id/daily',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'analytics:read' },
      schema: {
        summary: 'One product’s daily series, oldest day first (owner only)',
        tags: ['analytics'],
        security: secured,
        params: z.object({ id: z.uuid() }),
        querystring: daysQuery,
        response: { 200: dailySchema, ...errorResponses },
      },
    },
    async (request) => analytics.daily(sellerIdOf(request), request.params.id, request.query.days),
  );
}
