import {
  paymentModeSchema,
  paymentResultSchema,
  purchaseViewSchema,
  refundAnswerSchema,
  saleViewSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { listMyPurchases, listMySales, paymentByReference } from '../domain/purchases.js';
import { refundPurchase, type RefundDeps } from '../domain/refunds.js';
import type { SettlementDeps } from '../domain/settlement.js';
import { browserKeyHashOf } from './buyer-cookie.js';
import { errorSchema, toPurchaseView, toSaleView } from './schemas.js';

const errorResponses = { '4xx': errorSchema, '5xx': errorSchema };

export function purchaseRoutes(
  app: HttpServer,
  deps: {
    settlement: SettlementDeps & { logger: { warn(object: object, message: string): void } };
    refunds: RefundDeps;
  },
): void {
  app.get(
    '/api/purchases/payment-mode',
    {
      schema: {
        tags: ['purchases'],
        summary:
          'Whether checkout here moves real money, so buying screens can say when it does not',
        response: { 200: paymentModeSchema },
      },
    },
    async () => ({
      testMode: deps.settlement.provider.testMode,
      processorFeeBps: deps.settlement.processorFeeBps,
    }),
  );

  app.get(
    '/api/purchases',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['purchases'],
        summary: "The signed-in user's paid purchases (matched by verified e-mail), newest first",
        security: [{ bearer: [] }, { cookie: [] }],
        response: { 200: z.object({ purchases: z.array(purchaseViewSchema) }), ...errorResponses },
      },
    },
    async (request) => ({
      purchases: (await listMyPurchases(deps.settlement.pool, request.user!)).map(toPurchaseView),
    }),
  );

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
      const result = await paymentByReference(deps.settlement, {
        txRef: (request.query.tx_ref ?? request.query.txRef)!,
        user: request.user,
        browserKeyHash: browserKeyHashOf(request),
      });
      return { ...result, purchase: result.purchase && toPurchaseView(result.purchase) };
    },
  );

  app.get(
    '/api/purchases/sales',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['purchases'],
        summary: "The signed-in seller's own sales, newest first",
        security: [{ bearer: [] }, { cookie: [] }],
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: z.object({ sales: z.array(saleViewSchema) }), ...errorResponses },
      },
    },
    async (request) => ({
      sales: (await listMySales(deps.settlement.pool, request.user!, request.query.limit)).map(
        toSaleView,
      ),
    }),
  );

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
        deps.refunds,
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
