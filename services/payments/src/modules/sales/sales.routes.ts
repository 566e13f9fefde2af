import {
  paymentModeSchema,
  purchaseListSchema,
  saleEmailSettingsSchema,
  saleListSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { minorToDecimalString } from '@lockdrop/money';
import { z } from 'zod';
import type { Pool } from '@lockdrop/db';
import { EXPORT_LIMIT, toCsv } from '../../http/csv.js';
import { errorResponses } from '../../http/error-schema.js';
import { listMyPurchases, listMySales } from './purchases.js';
import type { Purchase } from './purchases.repository.js';
import { saleEmailsEnabled, setSaleEmails } from './sale-emails.js';
import { toPurchaseView, toSaleView } from './views.js';

/** The seller's sales as a spreadsheet: what the sales screen shows, one row per sale. */
export function salesCsv(sales: Purchase[]): string {
  const money = (minor: number, currency: string) => minorToDecimalString(minor, currency);
  return toCsv(
    [
      'paid_at',
      'product',
      'buyer_email',
      'amount',
      'currency',
      'discount_code',
      'platform_fee',
      'processing_fee',
      'earnings',
      'status',
      'refunded_at',
      'test_mode',
      'payment_reference',
      'sale_id',
    ],
    sales.map((sale) => [
      sale.paidAt.toISOString(),
      sale.productTitle,
      sale.buyerEmail,
      money(sale.amountMinor, sale.currency),
      sale.currency,
      sale.discountCode ?? '',
      money(sale.feePlatformMinor, sale.currency),
      money(sale.feeProcessorMinor, sale.currency),
      money(sale.sellerEarningsMinor, sale.currency),
      sale.status,
      sale.refundedAt?.toISOString() ?? '',
      sale.testMode ? 'yes' : 'no',
      sale.txRef,
      sale.id,
    ]),
  );
}

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

  // Issue 28: an accountant exports sales (the right is `exports:read`, not `sales:read`).
  app.get(
    '/api/purchases/sales/export.csv',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'exports:read' },
      schema: {
        tags: ['purchases'],
        summary: "The signed-in seller's sales as CSV, newest first",
        security: [{ bearer: [] }, { cookie: [] }],
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const sales = await listMySales(deps.pool, request.user!, EXPORT_LIMIT);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="lockdrop-sales.csv"')
        .header('cache-control', 'no-store')
        .send(salesCsv(sales));
    },
  );

  app.get(
    '/api/purchases/sale-emails',
    {
      preHandler: app.authenticate,
      // Sale e-mails go to the store's current owner, who chooses whether to get them.
      config: { storeRight: 'store:owner' },
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
      config: { storeRight: 'store:owner' },
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
