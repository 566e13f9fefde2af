import { buyerUpdatesChangeSchema, buyerUpdatesSubscriptionSchema } from '@lockdrop/contracts';
import type { HttpServer, ZodTypeProvider } from '@lockdrop/http';
import { z } from 'zod';
import type { BuyerUpdatesService } from './buyer-updates.js';
import { errorResponses } from '../../http/error-schema.js';

const params = z.object({ token: z.string().max(200) });
const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/**
 * The unsubscribe link of product-update e-mails. No sign-in: the token is the credential, and
 * it can only stop or restart one seller's update e-mails to one address.
 */
export async function buyerUpdateRoutes(
  app: HttpServer,
  buyerUpdates: BuyerUpdatesService,
): Promise<void> {
  app.get(
    '/api/buyer-updates/:token',
    {
      schema: {
        tags: ['buyer updates'],
        summary: "Whether this address still gets the seller's update e-mails",
        params,
        response: { 200: buyerUpdatesSubscriptionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(NO_STORE);
      return buyerUpdates.describe(request.params.token);
    },
  );

  app.put(
    '/api/buyer-updates/:token',
    {
      schema: {
        tags: ['buyer updates'],
        summary: "Stops or restarts the seller's update e-mails to this address",
        params,
        body: buyerUpdatesChangeSchema,
        response: { 200: buyerUpdatesSubscriptionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.headers(NO_STORE);
      return buyerUpdates.change(request.params.token, request.body.subscribed);
    },
  );

  // RFC 8058: mail apps POST `List-Unsubscribe=One-Click` url-encoded, with no cookies; the
  // POST alone unsubscribes, whatever its body says.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/buyer-updates/:token/unsubscribe',
      {
        schema: {
          tags: ['buyer updates'],
          summary: 'One-click unsubscribe (the List-Unsubscribe header of update e-mails)',
          params,
          response: { 200: buyerUpdatesSubscriptionSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        reply.headers(NO_STORE);
        return buyerUpdates.change(request.params.token, false);
      },
    );
  });
}
