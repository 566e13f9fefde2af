import { actionSourceOf } from '../audit/index.js';
import { refundAnswerSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { errors } from '@lockdrop/http';
import { Gauge } from 'prom-client';
import { z } from 'zod';
import { errorResponses } from '../../http/error-schema.js';
import { toSaleView } from '../sales/index.js';
import { isSupport, refundPurchase, type RefundDeps } from './refunds.js';
import { countUnresolvedRefunds, listUnresolvedRefunds } from './refunds.repository.js';

const unresolvedRefundSchema = z.object({
  id: z.string(),
  /** A sale's refund names its purchase; a plan refund (issue 30) the subscription charge. */
  purchaseId: z.string().nullable(),
  chargeId: z.string().nullable(),
  status: z.enum(['requested', 'pending']),
  provider: z.string(),
  providerTransactionId: z.string(),
  providerRefundId: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  requestedAt: z.string(),
  escalatedAt: z.string(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
  checks: z.number().int(),
});

export function refundRoutes(app: HttpServer, deps: RefundDeps): void {
  // Refunds the provider has not resolved past the follow-up horizon: access is held and the
  // reconciler keeps asking, but an operator should look (ARCHITECTURE §3a).
  new Gauge({
    name: 'payments_refunds_unresolved',
    help: 'Refunds the provider has not confirmed or refused past the follow-up horizon (need an operator)',
    registers: [app.metricsRegistry],
    async collect() {
      this.set(await countUnresolvedRefunds(deps.pool));
    },
  });

  app.get(
    '/api/refunds/unresolved',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['purchases'],
        summary: 'Refunds waiting on the provider past the follow-up horizon (support only)',
        security: [{ bearer: [] }, { cookie: [] }],
        response: {
          200: z.object({ refunds: z.array(unresolvedRefundSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      if (!isSupport(deps, request.user!)) throw errors.forbidden();
      const iso = (at: Date | null) => at?.toISOString() ?? null;
      const refunds = await listUnresolvedRefunds(deps.pool);
      return {
        refunds: refunds.map((refund) => ({
          ...refund,
          requestedAt: refund.requestedAt.toISOString(),
          escalatedAt: refund.escalatedAt.toISOString(),
          lastCheckedAt: iso(refund.lastCheckedAt),
          nextCheckAt: iso(refund.nextCheckAt),
        })),
      };
    },
  );

  app.post(
    '/api/purchases/:purchaseId/refund',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'refunds:write' },
      schema: {
        tags: ['purchases'],
        summary: 'Refund a purchase within the refund window (its seller or support)',
        security: [{ bearer: [] }, { cookie: [] }],
        params: z.object({ purchaseId: z.uuid() }),
        response: {
          200: refundAnswerSchema,
          // The provider has not confirmed yet: access is suspended and the refund is followed up.
          202: refundAnswerSchema,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const purchase = await refundPurchase(
        deps,
        request.user!,
        request.params.purchaseId,
        request.id,
        actionSourceOf(request),
      );
      return reply
        .code(purchase.status === 'refunded' ? 200 : 202)
        .send({ purchase: toSaleView(purchase) });
    },
  );
}
