import { errorBodySchema, previewStateSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { Previews } from '../domain/previews.js';

const productParams = z.object({ productId: z.uuid() });
const RETRY_PENDING_SECONDS = 2;

const pendingSchema = z.object({
  status: z.literal('pending'),
  retryAfterSeconds: z.number().int(),
});

/**
 * `/api/previews/:productId`: the server-rendered, blurred derivative of a product's file —
 * never the file itself. Published products are public; drafts are visible to their owner.
 */
export function previewRoutes(app: HttpServer, { previews }: { previews: Previews }): void {
  app.get(
    '/api/previews/:productId/status',
    {
      preHandler: app.identify,
      schema: {
        params: productParams,
        response: { 200: previewStateSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return previews.state(request.params.productId, request.user);
    },
  );

  app.get(
    '/api/previews/:productId',
    {
      preHandler: app.identify,
      schema: {
        summary: 'The preview image (JPEG); 202 while it is being rendered',
        params: productParams,
        response: {
          200: z.any().describe('The preview image'),
          202: pendingSchema,
          304: z.undefined(),
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
      const preview = await previews.image(request.params.productId, request.user);
      if (preview.status === 'pending') {
        reply
          .header('cache-control', 'no-store')
          .header('retry-after', String(RETRY_PENDING_SECONDS));
        return reply
          .status(202)
          .send({ status: 'pending', retryAfterSeconds: RETRY_PENDING_SECONDS });
      }
      // A minute in shared caches for busy storefronts (a new blur level shows within it); then the ETag revalidates.
      reply
        .header('etag', preview.etag)
        .header('cache-control', preview.public ? 'public, max-age=60' : 'private, no-cache')
        .header('content-disposition', 'inline; filename="preview.jpg"');
      if (request.headers['if-none-match'] === preview.etag) {
        preview.body.destroy();
        return reply.status(304).send();
      }
      return reply.type(preview.contentType).send(preview.body);
    },
  );
}
