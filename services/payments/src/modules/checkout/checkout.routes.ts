import {
  claimConfirmedSchema,
  confirmClaimSchema,
  checkoutQuoteRequestSchema,
  checkoutQuoteSchema,
  checkoutStartedSchema,
  startCheckoutSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { quoteCheckout } from './pricing.js';
import { startCheckout, type ProductCheckoutDeps } from './checkout.js';
import { confirmClaimLink } from './free-claims.js';
import { ensureBrowserKey } from '../../http/buyer-cookie.js';
import { storeOriginOf } from '../../http/store-origin.js';
import { errorResponses } from '../../http/error-schema.js';

export function checkoutRoutes(
  app: HttpServer,
  deps: ProductCheckoutDeps & { secureCookies: boolean; publicUrl: string },
): void {
  app.post(
    '/api/checkout/quote',
    {
      schema: {
        tags: ['checkout'],
        summary:
          'What checkout will charge for a product: with a discount code, a pay-what-you-want amount, in a currency',
        body: checkoutQuoteRequestSchema,
        response: { 200: checkoutQuoteSchema, ...errorResponses },
      },
    },
    async (request) =>
      quoteCheckout(deps.pool, {
        productId: request.body.productId,
        currency: request.body.currency,
        discountCode: request.body.discountCode,
        amount: request.body.amount,
        // Never the buyer's: a quote must not tell anyone whether an address has used a code
        // (issue 30). Checkout enforces a per-buyer limit.
        buyerEmail: null,
        now: deps.now(),
        fx: deps.fx,
      }),
  );

  app.post(
    '/api/checkout',
    {
      schema: {
        tags: ['checkout'],
        summary:
          'Start a checkout: returns the hosted payment page to send the buyer to (or, when it costs nothing, the success page)',
        body: startCheckoutSchema,
        response: { 200: checkoutStartedSchema, ...errorResponses },
      },
      // Optional: a signed-in buyer's verified account e-mail needs no confirmation of a free claim.
      preHandler: app.identify,
    },
    async (request, reply) =>
      startCheckout(deps, {
        productId: request.body.productId,
        buyerEmail:
          typeof request.body.buyerEmail === 'string' ? request.body.buyerEmail : undefined,
        currency: request.body.currency,
        discountCode: request.body.discountCode,
        amount: request.body.amount,
        browserKeyHash: ensureBrowserKey(request, reply, deps.secureCookies),
        verifiedAccountEmail: request.user?.emailVerified ? request.user.email : null,
        storeOrigin: storeOriginOf(request),
        correlationId: request.id,
      }),
  );

  app.post(
    '/api/checkout/claims/confirm',
    {
      schema: {
        tags: ['checkout'],
        summary:
          "Confirms a free claim with the e-mailed link's token: the claim becomes a purchase once; returns its receipt page",
        body: confirmClaimSchema,
        response: { 200: claimConfirmedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return confirmClaimLink(deps, request.body.token, storeOriginOf(request));
    },
  );

  // The link in the confirmation e-mail: confirms, then lands on the receipt page (or on the
  // web's claim-link screen, which explains an expired or unknown link).
  app.get(
    '/api/checkout/claims/confirm',
    {
      schema: {
        tags: ['checkout'],
        summary:
          "The confirmation e-mail's link: confirms the free claim and redirects to its receipt",
        querystring: confirmClaimSchema.partial(),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const fallback = new URL('/claim-link', deps.publicUrl);
      try {
        const { receiptUrl } = await confirmClaimLink(
          deps,
          request.query.token ?? '',
          storeOriginOf(request),
        );
        if (receiptUrl) return reply.redirect(receiptUrl, 303);
        fallback.searchParams.set('status', 'confirmed');
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'claim_link_invalid' && code !== 'claim_link_expired') throw error;
        fallback.searchParams.set('error', code);
      }
      return reply.redirect(fallback.toString(), 303);
    },
  );
}
