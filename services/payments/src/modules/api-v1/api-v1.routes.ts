import { actionSourceOf, auditedBy } from '../audit/index.js';
import {
  pageAfter,
  v1BalancesSchema,
  v1CancelledSubscriptionSchema,
  v1CreatedDiscountCodeSchema,
  v1DeletedSchema,
  v1DiscountCodeCreateSchema,
  v1DiscountCodePageSchema,
  v1DiscountCodeSchema,
  v1DiscountCodeUpdateSchema,
  v1IdParamsSchema,
  v1PageQuerySchema,
  v1PayoutPageSchema,
  v1RefundedSaleSchema,
  v1SaleListQuerySchema,
  v1SalePageSchema,
  v1SaleSchema,
  v1SubscriptionListQuerySchema,
  v1SubscriptionPageSchema,
  v1SubscriptionSchema,
  v1UpdatedDiscountCodeSchema,
} from '@lockdrop/contracts';
import type { AuthUser } from '@lockdrop/auth';
import { AppError, type HttpServer } from '@lockdrop/http';
import { errorResponses } from '../../http/error-schema.js';
import type { DiscountService } from '../discounts/index.js';
import { getBalances, listPayoutsPage, type PayoutDeps } from '../payouts/index.js';
import { refundPurchase, type RefundDeps } from '../refunds/index.js';
import { cancelSoldSubscription, soldSubscription, type RenewalsDeps } from '../renewals/index.js';
import { findPurchase, keyMode, keyOwns, listSellerSalesPage } from '../sales/index.js';
import { listSoldSubscriptionsPage } from '../subscriptions/index.js';
import {
  discountChange,
  discountInputOf,
  toV1Balances,
  toV1DiscountCode,
  toV1Payout,
  toV1Sale,
  toV1Subscription,
} from './views.js';

export interface ApiV1Deps {
  refunds: RefundDeps;
  renewals: RenewalsDeps;
  discounts: DiscountService;
  payouts: PayoutDeps;
}

const security = [{ apiKey: [] }];
const invalidCursor = (what: string) =>
  new AppError('invalid_cursor', 400, `starting_after names no ${what} of yours`);
const saleNotFound = () => new AppError('sale_not_found', 404, 'Sale not found');

/** The key's seller and mode: every query and action below is held to both (`keyOwns`). */
const owner = (user: AuthUser) => ({ sellerId: user.id, testMode: keyMode(user)!.testMode });

/** A 404 from a shared service (the dashboard's code) answered as this API's own not-found. */
const asNotFound =
  (notFound: () => AppError) =>
  (error: unknown): never => {
    if (error instanceof AppError && error.status === 404) throw notFound();
    throw error;
  };

/**
 * The public API's money resources (issue 27): `/api/v1/sales`, `/subscriptions`,
 * `/discount-codes`, `/payouts`, `/balances`, for an API key's internal token (the gateway's
 * `/api/v1` door). Each goes through the dashboard's own service (refunds, cancel, discount
 * validation, balances); another seller's row, or one of the other mode, is a 404.
 */
export function apiV1MoneyRoutes(app: HttpServer, deps: ApiV1Deps): void {
  const { pool } = deps.refunds;

  // Sales.
  {
    const tags = ['v1: sales'];
    app.get(
      '/api/v1/sales',
      {
        preHandler: app.requireApiScope('sales:read'),
        schema: {
          summary: "List the seller's sales, newest first",
          description:
            'Filters: `productId`, `status`, `createdFrom` (inclusive), `createdBefore` (exclusive). A test key lists test sales only, a live key live ones.',
          tags,
          security,
          querystring: v1SaleListQuerySchema,
          response: { 200: v1SalePageSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { starting_after, limit, ...query } = request.query;
        const page = await listSellerSalesPage(
          pool,
          owner(request.user!),
          {
            productId: query.productId,
            status: query.status,
            paidFrom: query.createdFrom,
            paidBefore: query.createdBefore,
          },
          { startingAfter: starting_after, limit },
        );
        if (!page) throw invalidCursor('sale');
        return { object: 'list' as const, data: page.data.map(toV1Sale), has_more: page.has_more };
      },
    );

    app.get(
      '/api/v1/sales/:id',
      {
        preHandler: app.requireApiScope('sales:read'),
        schema: {
          summary: 'Retrieve one of the seller’s sales',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1SaleSchema, ...errorResponses },
        },
      },
      async (request) => {
        const sale = await findPurchase(pool, request.params.id);
        if (!sale || !keyOwns(request.user!, sale)) throw saleNotFound();
        return toV1Sale(sale);
      },
    );

    app.post(
      '/api/v1/sales/:id/refund',
      {
        preHandler: app.requireApiScope('refunds:write'),
        schema: {
          summary: 'Refund a sale in full, within the refund window',
          description:
            'The dashboard’s refund: 200 once the provider confirmed it, 202 while it is under way (downloads are held). A sale refunded or being refunded is a 409.',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1RefundedSaleSchema, 202: v1SaleSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const sale = await refundPurchase(
          deps.refunds,
          request.user!,
          request.params.id,
          request.id,
          actionSourceOf(request),
        ).catch(asNotFound(saleNotFound));
        return reply.code(sale.status === 'refunded' ? 200 : 202).send(toV1Sale(sale));
      },
    );
  }

  // Subscriptions.
  {
    const tags = ['v1: subscriptions'];
    const rules = deps.renewals.subscriptions;
    const subscriptionNotFound = () =>
      new AppError('subscription_not_found', 404, 'Subscription not found');
    app.get(
      '/api/v1/subscriptions',
      {
        preHandler: app.requireApiScope('subscriptions:read'),
        schema: {
          summary: 'List the subscriptions to the seller’s products, newest first',
          description:
            'Filters: `productId`, `status`, `createdFrom` (inclusive), `createdBefore` (exclusive).',
          tags,
          security,
          querystring: v1SubscriptionListQuerySchema,
          response: { 200: v1SubscriptionPageSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { starting_after, limit, ...query } = request.query;
        const page = await listSoldSubscriptionsPage(
          pool,
          owner(request.user!),
          {
            productId: query.productId,
            status: query.status,
            createdFrom: query.createdFrom,
            createdBefore: query.createdBefore,
          },
          { startingAfter: starting_after, limit },
        );
        if (!page) throw invalidCursor('subscription');
        return {
          object: 'list' as const,
          data: page.data.map((sub) => toV1Subscription(sub, rules)),
          has_more: page.has_more,
        };
      },
    );

    app.get(
      '/api/v1/subscriptions/:id',
      {
        preHandler: app.requireApiScope('subscriptions:read'),
        schema: {
          summary: 'Retrieve a subscription to one of the seller’s products',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1SubscriptionSchema, ...errorResponses },
        },
      },
      async (request) =>
        toV1Subscription(
          await soldSubscription(deps.renewals, request.user!, request.params.id).catch(
            asNotFound(subscriptionNotFound),
          ),
          rules,
        ),
    );

    app.post(
      '/api/v1/subscriptions/:id/cancel',
      {
        preHandler: app.requireApiScope('subscriptions:write'),
        schema: {
          summary: 'Cancel a subscription at the end of its paid period',
          description:
            'The subscriber keeps access until the period ends; nothing more is charged. An ended subscription is a 409.',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1CancelledSubscriptionSchema, ...errorResponses },
        },
      },
      async (request) =>
        toV1Subscription(
          await cancelSoldSubscription(deps.renewals, request.user!, request.params.id).catch(
            asNotFound(subscriptionNotFound),
          ),
          rules,
        ),
    );
  }

  // Discount codes: not money of a mode, so a test and a live key see the same codes.
  {
    const tags = ['v1: discount codes'];
    const read = { preHandler: app.requireApiScope('discounts:read') };
    const write = { preHandler: app.requireApiScope('discounts:write') };
    app.get(
      '/api/v1/discount-codes',
      {
        ...read,
        schema: {
          summary: "List the seller's discount codes, newest first",
          tags,
          security,
          querystring: v1PageQuerySchema,
          response: { 200: v1DiscountCodePageSchema, ...errorResponses },
        },
      },
      async (request) => {
        // A seller has few codes, and their figures are summed per page anyway: paged in memory.
        const page = pageAfter(await deps.discounts.list(request.user!.id), request.query);
        if (!page) throw invalidCursor('discount code');
        return {
          object: 'list' as const,
          data: page.data.map(toV1DiscountCode),
          has_more: page.has_more,
        };
      },
    );

    app.post(
      '/api/v1/discount-codes',
      {
        ...write,
        schema: {
          summary: 'Create a discount code',
          description:
            '`kind: percent` takes `percentOff` (1–100); `kind: fixed` takes `amountOffMinor` in minor units of `currency`. `productIds` null: every product of the seller.',
          tags,
          security,
          body: v1DiscountCodeCreateSchema,
          response: { 201: v1CreatedDiscountCodeSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            toV1DiscountCode(
              await deps.discounts.create(
                request.user!.id,
                discountInputOf(request.body),
                auditedBy(request),
              ),
            ),
          ),
    );

    app.get(
      '/api/v1/discount-codes/:id',
      {
        ...read,
        schema: {
          summary: 'Retrieve a discount code',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1DiscountCodeSchema, ...errorResponses },
        },
      },
      async (request) =>
        toV1DiscountCode(await deps.discounts.read(request.user!.id, request.params.id)),
    );

    app.patch(
      '/api/v1/discount-codes/:id',
      {
        ...write,
        schema: {
          summary: 'Update a discount code (only the fields given change)',
          tags,
          security,
          params: v1IdParamsSchema,
          body: v1DiscountCodeUpdateSchema,
          response: { 200: v1UpdatedDiscountCodeSchema, ...errorResponses },
        },
      },
      async (request) =>
        toV1DiscountCode(
          await deps.discounts.update(
            request.user!.id,
            request.params.id,
            discountChange(request.body),
            auditedBy(request),
          ),
        ),
    );

    app.delete(
      '/api/v1/discount-codes/:id',
      {
        ...write,
        schema: {
          summary: 'Delete a discount code nobody has used (a used one can be made inactive)',
          tags,
          security,
          params: v1IdParamsSchema,
          response: { 200: v1DeletedSchema, ...errorResponses },
        },
      },
      async (request) => {
        await deps.discounts.remove(request.user!.id, request.params.id, auditedBy(request));
        return { object: 'discount_code', id: request.params.id, deleted: true as const };
      },
    );
  }

  // Payouts and balances.
  {
    const tags = ['v1: payouts'];
    app.get(
      '/api/v1/payouts',
      {
        preHandler: app.requireApiScope('payouts:read'),
        schema: {
          summary: "List the seller's payouts, newest first",
          tags,
          security,
          querystring: v1PageQuerySchema,
          response: { 200: v1PayoutPageSchema, ...errorResponses },
        },
      },
      async (request) => {
        const page = await listPayoutsPage(pool, owner(request.user!), {
          startingAfter: request.query.starting_after,
          limit: request.query.limit,
        });
        if (!page) throw invalidCursor('payout');
        return {
          object: 'list' as const,
          data: page.data.map(toV1Payout),
          has_more: page.has_more,
        };
      },
    );

    app.get(
      '/api/v1/balances',
      {
        preHandler: app.requireApiScope('payouts:read'),
        schema: {
          summary: 'Pending, available, in-transit and paid-out balances per currency',
          description: 'From the ledger, as the payouts screen shows them, for the key’s mode.',
          tags,
          security,
          response: { 200: v1BalancesSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { sellerId, testMode } = owner(request.user!);
        return toV1Balances(await getBalances(deps.payouts, sellerId, testMode), testMode);
      },
    );
  }
}
