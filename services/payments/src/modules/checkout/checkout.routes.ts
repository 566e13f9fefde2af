import {
  checkoutQuoteRequestSchema,
  checkoutQuoteSchema,
  checkoutStartedSchema,
  startCheckoutSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { quoteCheckout } from './pricing.js';
import { startCheckout, type ProductCheckoutDeps } from './checkout.js';
import { ensureBrowserKey } from '../../http/buyer-cookie.js';
import { errorResponses } from '../../http/error-schema.js';

export function checkoutRoutes(
  app: HttpServer,
  deps: ProductCheckoutDeps & { secureCookies: boolean },
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
        correlationId: request.id,
      }),
  );
}
