import { paymentResultSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { browserKeyHashOf } from '../../http/buyer-cookie.js';
import { errorResponses } from '../../http/error-schema.js';
import { toPurchaseView } from '../sales/index.js';
import { paymentByReference, type PaymentStatusDeps } from './payment-status.js';

/** The success page's question, answered after asking the provider if no webhook has come yet. */
export function paymentStatusRoutes(app: HttpServer, deps: PaymentStatusDeps): void {
  app.get(
    '/api/purchases/by-reference',
    {
      preHandler: app.identify,
      schema: {
        tags: ['purchases'],
        summary: 'Payment result for the success page (buyer or the browser that checked out)',
        querystring: z
          .object({
            tx_ref: z.string().min(1).max(100).optional(),
            txRef: z.string().min(1).max(100).optional(),
          })
          .refine((query) => query.tx_ref ?? query.txRef, { message: 'tx_ref is required' }),
        response: {
          200: paymentResultSchema,
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const result = await paymentByReference(deps, {
        txRef: (request.query.tx_ref ?? request.query.txRef)!,
        user: request.user,
        browserKeyHash: browserKeyHashOf(request),
      });
      return { ...result, purchase: result.purchase && toPurchaseView(result.purchase) };
    },
  );
}
