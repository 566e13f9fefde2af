import { checkoutStartedSchema, startCheckoutSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { startCheckout, type CheckoutDeps } from '../domain/checkout.js';
import { ensureBrowserKey } from './buyer-cookie.js';
import { errorSchema } from './schemas.js';

export function checkoutRoutes(
  app: HttpServer,
  deps: CheckoutDeps & { secureCookies: boolean },
): void {
  app.post(
    '/api/checkout',
    {
      schema: {
        tags: ['checkout'],
        summary: 'Start a checkout: returns the hosted payment page to send the buyer to',
        body: startCheckoutSchema,
        response: {
          200: checkoutStartedSchema,
          '4xx': errorSchema,
          '5xx': errorSchema,
        },
      },
    },
    async (request, reply) =>
      startCheckout(deps, {
        productId: request.body.productId,
        buyerEmail:
          typeof request.body.buyerEmail === 'string' ? request.body.buyerEmail : undefined,
        currency: request.body.currency,
        browserKeyHash: ensureBrowserKey(request, reply, deps.secureCookies),
        correlationId: request.id,
      }),
  );
}
