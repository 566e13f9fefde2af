import {
  paymentModeSchema,
  purchaseListSchema,
  saleEmailSettingsSchema,
  saleListSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { Pool } from '@lockdrop/db';
import { errorResponses } from '../../http/error-schema.js';
import { listMyPurchases, listMySales } from './purchases.js';
import { saleEmailsEnabled, setSaleEmails } from './sale-emails.js';
import { toPurchaseView, toSaleView } from './views.js';

/**
 * What buyers and sellers read of sales: the payment mode, a buyer's purchases, a seller's sales,
 * and the seller's "You made a sale" e-mail setting.
 */
export function salesRoutes(
  app: HttpServer,
  deps: { pool: Pool; testMode: boolean; processorFeeBps: number },
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
      testMode: deps.testMode,
      processorFeeBps: deps.processorFeeBps,
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
        response: { 200: purchaseListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      purchases: (await listMyPurchases(deps.pool, request.user!)).map(toPurchaseView),
    }),
  );

  app.get(
    '/api/purchases/sales',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'sales:read' },
      schema: {
        tags: ['purchases'],
        summary: "The signed-in seller's own sales, newest first",
        security: [{ bearer: [] }, { cookie: [] }],
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: saleListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      sales: (await listMySales(deps.pool, request.user!, request.query.limit)).map(toSaleView),
    }),
  );

  app.get(
    '/api/purchases/sale-emails',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['purchases'],
        summary: 'Whether the signed-in seller is e-mailed "You made a sale" (on by default)',
        security: [{ bearer: [] }, { cookie: [] }],
        response: { 200: saleEmailSettingsSchema, ...errorResponses },
      },
    },
    async (request) => ({ saleEmails: await saleEmailsEnabled(deps.pool, request.user!.id) }),
  );

  app.put(
    '/api/purchases/sale-emails',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['purchases'],
        summary: 'Turns the signed-in seller\'s "You made a sale" e-mails on or off',
        security: [{ bearer: [] }, { cookie: [] }],
        body: saleEmailSettingsSchema,
        response: { 200: saleEmailSettingsSchema, ...errorResponses },
      },
    },
    async (request) => {
      await setSaleEmails(deps.pool, request.user!.id, request.body.saleEmails);
      return { saleEmails: request.body.saleEmails };
    },
  );
}
