import {
  analyticsDaysQuerySchema,
  errorBodySchema,
  v1AnalyticsOverviewSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import type { Analytics } from '../domain/analytics.js';

const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
};

/** `/api/v1/analytics`: the dashboard's figures for an API key (its seller, its mode). */
export function apiV1AnalyticsRoutes(app: HttpServer, analytics: Analytics): void {
  app.get(
    '/api/v1/analytics/overview',
    {
      preHandler: app.requireApiScope('analytics:read'),
      schema: {
        summary: "The seller's figures over the last `days` days and the period before",
        description:
          'The dashboard overview. A live key sees live figures only; a test key sees its test ' +
          '(sandbox) sales as `sales`, `refunds` and gross `revenue` (earnings and net are null).',
        tags: ['v1: analytics'],
        security: [{ apiKey: [] }],
        querystring: analyticsDaysQuerySchema.strict(),
        response: { 200: v1AnalyticsOverviewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { user } = request;
      return analytics.apiOverview(user!.id, request.query.days, user!.apiKey!.mode);
    },
  );
}
