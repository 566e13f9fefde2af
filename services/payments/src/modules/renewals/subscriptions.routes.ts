import {
  planBillingSchema,
  planCancelRequestSchema,
  planCancelResultSchema,
  planChangeRequestSchema,
  planChangeResultSchema,
  subscriberFiguresSchema,
  subscriptionListSchema,
  subscriptionViewSchema,
} from '@lockdrop/contracts';
import { errors, type HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { sellerSubscriberFigures } from '../subscriptions/index.js';
import { cancelPlan, changePlan, getPlanBilling } from './plan-billing.js';
import {
  cancelAtPeriodEnd,
  listMySubscriptions,
  payPastDue,
  resumeSubscription,
  sandboxControl,
} from './subscription-actions.js';
import type { RenewalsDeps } from './subscription-clock.js';
import { errorResponses } from '../../http/error-schema.js';
const security: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
const idParams = z.object({ id: z.uuid() });
const linkSchema = z.object({ link: z.url(), txRef: z.string() });

/**
 * Recurring billing: a buyer's subscriptions (`/api/subscriptions*`), a seller's subscriber
 * figures, and the seller's own plan (`/api/billing/plan*`). Every route needs a signed-in user
 * and acts only on what that user holds.
 */
export function subscriptionRoutes(
  app: HttpServer,
  deps: RenewalsDeps,
  sandbox: { failNextCharge(token: string): Promise<void> } | null,
): void {
  app.get(
    '/api/subscriptions',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "The signed-in buyer's product subscriptions (by verified e-mail)",
        security,
        response: { 200: subscriptionListSchema, ...errorResponses },
      },
    },
    async (request) => ({ subscriptions: await listMySubscriptions(deps, request.user!) }),
  );

  app.get(
    '/api/subscriptions/figures',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "The signed-in seller's active subscribers and monthly recurring revenue",
        security,
        response: { 200: subscriberFiguresSchema, ...errorResponses },
      },
    },
    async (request) => ({ figures: await sellerSubscriberFigures(deps.pool, request.user!.id) }),
  );

  for (const [action, summary, run] of [
    ['cancel', 'Cancel at the end of the paid period', cancelAtPeriodEnd],
    ['resume', 'Take a cancellation back before the period ends', resumeSubscription],
  ] as const) {
    app.post(
      `/api/subscriptions/:id/${action}`,
      {
        preHandler: app.authenticate,
        // The store's plan is its owner's (an owner acting after a transfer too); a product
        // subscription stays the person's own (isHolder refuses it to anyone acting).
        config: { storeRight: 'store:owner' },
        schema: {
          tags: ['subscriptions'],
          summary,
          security,
          params: idParams,
          response: { 200: subscriptionViewSchema, ...errorResponses },
        },
      },
      async (request) => run(deps, request.user!, (request.params as { id: string }).id),
    );
  }

  app.post(
    '/api/subscriptions/:id/pay',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'store:owner' },
      schema: {
        tags: ['subscriptions'],
        summary: 'Pay the unpaid period of a past-due subscription (returns the hosted checkout)',
        security,
        params: idParams,
        response: { 200: linkSchema, ...errorResponses },
      },
    },
    async (request) => payPastDue(deps, request.user!, (request.params as { id: string }).id),
  );

  if (sandbox) {
    // Test controls exist only with the sandbox provider (refused in production without the demo flag).
    app.post(
      '/api/subscriptions/:id/sandbox/:action',
      {
        preHandler: app.authenticate,
        schema: {
          tags: ['subscriptions'],
          summary: 'Sandbox only: renew now, or make the next renewal fail',
          security,
          params: idParams.extend({ action: z.enum(['renew-now', 'fail-next-renewal']) }),
          response: { 200: subscriptionViewSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { id, action } = request.params as { id: string; action: string };
        return sandboxControl(
          { ...deps, failNextCharge: (token) => sandbox.failNextCharge(token) },
          request.user!,
          id,
          action === 'renew-now' ? 'renew_now' : 'fail_next_renewal',
        );
      },
    );
  }

  app.get(
    '/api/billing/plan',
    {
      preHandler: app.authenticate,
      // The store's plan is its owner's to choose (an owner acting after a transfer too).
      config: { storeRight: 'store:owner' },
      schema: {
        tags: ['billing'],
        summary: "The signed-in seller's plan, its renewal and any scheduled change",
        security,
        response: { 200: planBillingSchema, ...errorResponses },
      },
    },
    async (request) => getPlanBilling(deps, request.user!),
  );

  app.post(
    '/api/billing/plan/change',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'store:owner' },
      schema: {
        tags: ['billing'],
        summary:
          'Buy or change the plan: upgrades are paid now (prorated), downgrades wait for the period end',
        security,
        body: planChangeRequestSchema,
        response: { 200: planChangeResultSchema, ...errorResponses },
      },
    },
    async (request) => changePlan(deps, request.user!, planChangeRequestSchema.parse(request.body)),
  );

  app.post(
    '/api/billing/plan/cancel',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'store:owner' },
      schema: {
        tags: ['billing'],
        summary:
          'Cancel the plan at period end, or now with a pro-rata refund (annual plans, within 30 days)',
        security,
        body: planCancelRequestSchema.optional(),
        response: { 200: planCancelResultSchema, 202: planCancelResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await cancelPlan(
        deps,
        request.user!,
        planCancelRequestSchema.parse(request.body ?? {}),
      );
      // Recorded and asked for, the provider's answer not in yet: accepted, not done.
      if (result.refundStatus === 'pending') reply.code(202);
      return result;
    },
  );

  app.post(
    '/api/billing/plan/resume',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'store:owner' },
      schema: {
        tags: ['billing'],
        summary: 'Take back a cancellation of the plan before its period ends',
        security,
        response: { 200: subscriptionViewSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { subscription } = await getPlanBilling(deps, request.user!);
      if (!subscription) throw errors.conflict('plan_unchanged', 'You are on the Free plan');
      return resumeSubscription(deps, request.user!, subscription.id);
    },
  );
}
