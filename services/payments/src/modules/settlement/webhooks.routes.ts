import { errors, type HttpServer, type ZodTypeProvider } from '@lockdrop/http';
import type { Queryable } from '@lockdrop/db';
import { z } from 'zod';
import { receiveWebhook, type WebhookDeps } from './webhooks.js';
import { createChargeInbox } from './charge-inbox.js';
import type { PaymentProvider } from '../../providers/types.js';
import { errorSchema } from '../../http/error-schema.js';

/** Most charges one group commit stores; more wait for the next. */
const CHARGE_BATCH = 256;

export async function webhookRoutes(
  app: HttpServer,
  deps: Omit<WebhookDeps, 'provider'> & {
    providers: ReadonlyMap<string, PaymentProvider>;
    inboxPool: Queryable;
  },
): Promise<void> {
  const chargeInbox = createChargeInbox(
    { pool: deps.inboxPool, now: deps.now, onStored: deps.settleSoon, logger: deps.logger },
    { maxBatch: CHARGE_BATCH },
  );
  // Signatures are over the exact bytes sent: this scope keeps the body raw, whatever its type.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/webhooks/:provider',
      {
        schema: {
          tags: ['webhooks'],
          summary:
            'Provider notifications (signed): 200 once stored (settled right after), 401 when the signature is wrong',
          params: z.object({ provider: z.string().max(40) }),
          response: {
            200: z.object({ received: z.literal(true), outcome: z.string() }),
            '4xx': errorSchema,
            '5xx': errorSchema,
          },
        },
      },
      async (request) => {
        const provider = deps.providers.get(request.params.provider);
        if (!provider)
          throw errors.notFound(
            'provider_not_found',
            `No payment provider ${request.params.provider}`,
          );
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { outcome } = await receiveWebhook(
          { ...deps, provider, chargeInbox },
          rawBody,
          request.headers,
        );
        return { received: true as const, outcome };
      },
    );
  });
}
