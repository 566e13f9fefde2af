import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
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
        body: z.object({
          productId: z.string().max(100),
          // Checked by the domain so a missing or malformed e-mail gets the spec's message.
          buyerEmail: z.unknown().optional(),
          currency: z.string().max(8).optional(),
        }),
        response: {
          200: z.object({ link: z.url(), txRef: z.string() }),
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
