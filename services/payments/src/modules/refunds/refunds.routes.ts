import { refundAnswerSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { errorResponses } from '../../http/error-schema.js';
import { toSaleView } from '../sales/index.js';
import { refundPurchase, type RefundDeps } from './refunds.js';

export function refundRoutes(app: HttpServer, deps: RefundDeps): void {
  app.post(
    '/api/purchases/:purchaseId/refund',
    {
      preHandler: app.authenticate,
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
      );
      return reply
        .code(purchase.status === 'refunded' ? 200 : 202)
        .send({ purchase: toSaleView(purchase) });
    },
  );
}
