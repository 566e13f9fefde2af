import { actionSourceOf } from '../audit/index.js';
import {
  bankAccountSchema,
  bankListSchema,
  payoutBalancesSchema,
  payoutDestinationAnswerSchema,
  payoutDestinationInputSchema,
  payoutListSchema,
  savedPayoutDestinationSchema,
  type SellerPayout,
} from '@lockdrop/contracts';
import { requireRecentAuth } from '@lockdrop/auth';
import type { HttpServer } from '@lockdrop/http';
import { minorToDecimalString } from '@lockdrop/money';
import { z } from 'zod';
import {
  getDestination,
  resolveAccountName,
  saveDestination,
  type DestinationDeps,
} from './destinations.js';
import { getBalances, listSellerPayouts, withdrawNow, type PayoutDeps } from './payouts.js';
import { errorResponses } from '../../http/error-schema.js';
import { EXPORT_LIMIT, toCsv } from '../../http/csv.js';
const security: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

export function payoutsCsv(payouts: SellerPayout[]): string {
  const header = [
    'created_at',
    'status',
    'amount',
    'currency',
    'source_amount',
    'source_currency',
    'fx_rate',
    'trigger',
    'destination',
    'failure_reason',
    'completed_at',
    // Test money is paid out in the sandbox only (issue 29): an accountant must not count it.
    'test_mode',
    'payout_id',
  ];
  const rows = payouts.map((payout) => [
    payout.createdAt,
    payout.status,
    minorToDecimalString(payout.amountMinor, payout.currency),
    payout.currency,
    minorToDecimalString(payout.sourceAmountMinor, payout.sourceCurrency),
    payout.sourceCurrency,
    payout.fxRate ?? '',
    payout.trigger,
    payout.destinationLabel,
    payout.failureReason ?? '',
    payout.completedAt ?? '',
    payout.testMode ? 'yes' : 'no',
    payout.id,
  ]);
  return toCsv(header, rows);
}

/** The signed-in seller's payout destination, balances and payouts. */
export function payoutRoutes(
  app: HttpServer,
  deps: { destinations: DestinationDeps; payouts: PayoutDeps; reauthMaxAgeSeconds: number },
): void {
  const auth = { preHandler: app.authenticate };
  // Where payouts go is the owner's alone (issue 28), also for an owner acting after a transfer.
  const ownerOnly = { storeRight: 'store:owner' } as const;

  app.get(
    '/api/payouts/banks',
    {
      ...auth,
      config: ownerOnly,
      schema: {
        tags: ['payouts'],
        summary: 'Banks a payout can be sent to (from the payment provider)',
        security,
        response: { 200: bankListSchema, ...errorResponses },
      },
    },
    async () => ({ banks: await deps.destinations.provider.listBanks() }),
  );

  app.post(
    '/api/payouts/resolve-account',
    {
      ...auth,
      config: ownerOnly,
      schema: {
        tags: ['payouts'],
        summary: "The account holder's name as the bank knows it, for the seller to confirm",
        security,
        body: bankAccountSchema,
        response: { 200: z.object({ accountName: z.string() }), ...errorResponses },
      },
    },
    async (request) => ({ accountName: await resolveAccountName(deps.destinations, request.body) }),
  );

  app.get(
    '/api/payouts/destination',
    {
      ...auth,
      config: ownerOnly,
      schema: {
        tags: ['payouts'],
        summary: "The seller's payout destination, masked",
        security,
        response: {
          200: payoutDestinationAnswerSchema,
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      destination: await getDestination(deps.destinations, request.user!.id),
    }),
  );

  app.put(
    '/api/payouts/destination',
    {
      ...auth,
      config: ownerOnly,
      schema: {
        tags: ['payouts'],
        summary:
          'Sets where payouts go: needs a recent re-authentication (403 reauthentication_required), e-mails the seller, and holds payouts after a change',
        security,
        body: payoutDestinationInputSchema,
        response: { 200: savedPayoutDestinationSchema, ...errorResponses },
      },
    },
    async (request) => {
      // The first destination too: a hijacked account with a balance must not be drained (issue 30).
      requireRecentAuth(request, deps.reauthMaxAgeSeconds);
      return {
        destination: await saveDestination(
          deps.destinations,
          request.user!,
          request.body,
          actionSourceOf(request),
          request.id,
        ),
      };
    },
  );

  app.get(
    '/api/payouts/balances',
    {
      ...auth,
      config: { storeRight: 'payouts:read' },
      schema: {
        tags: ['payouts'],
        summary:
          'Pending, available, in-transit and paid-out balances per currency, from the ledger',
        security,
        response: { 200: payoutBalancesSchema, ...errorResponses },
      },
    },
    (request) => getBalances(deps.payouts, request.user!.id),
  );

  app.get(
    '/api/payouts',
    {
      ...auth,
      config: { storeRight: 'payouts:read' },
      schema: {
        tags: ['payouts'],
        summary: "The seller's payouts, newest first",
        security,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
        response: { 200: payoutListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      payouts: await listSellerPayouts(deps.payouts, request.user!.id, request.query.limit),
    }),
  );

  app.post(
    '/api/payouts/withdraw',
    {
      ...auth,
      config: { storeRight: 'payouts:write' },
      schema: {
        tags: ['payouts'],
        summary: 'Withdraw now: pays out the available balance (once a day)',
        security,
        response: { 202: payoutListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const payouts = await withdrawNow(
        deps.payouts,
        request.user!.id,
        request.id,
        actionSourceOf(request),
      );
      return reply.code(202).send({ payouts });
    },
  );

  app.get(
    '/api/payouts/export.csv',
    {
      ...auth,
      config: { storeRight: 'exports:read' },
      schema: {
        tags: ['payouts'],
        summary: "The seller's payouts as CSV",
        security,
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const payouts = await listSellerPayouts(deps.payouts, request.user!.id, EXPORT_LIMIT);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="lockdrop-payouts.csv"')
        .header('cache-control', 'no-store')
        .send(payoutsCsv(payouts));
    },
  );
}
