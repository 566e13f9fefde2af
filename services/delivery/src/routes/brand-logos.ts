import multipart from '@fastify/multipart';
import { brandLogoSchema, errorBodySchema, LOGO_ID_PATTERN } from '@lockdrop/contracts';
import { AppError, errors, type HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { LOGO_UPLOAD_MAX_BYTES, type BrandLogos } from '../domain/brand-logos.js';

const logoParams = z.object({ sellerId: z.uuid(), logoFile: z.string().max(64) });
const logoNotFound = () => errors.notFound('logo_not_found', 'Logo not found');

/**
 * `/api/brand-logos`: a Pro seller's store logo. The upload is re-encoded before it is stored
 * (previews/logo.ts); the stored PNG is public and never changes under its name (content hash).
 */
export function brandLogoRoutes(app: HttpServer, { logos }: { logos: BrandLogos }): void {
  app.register(async (scope: HttpServer) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 0, parts: 1, fileSize: LOGO_UPLOAD_MAX_BYTES, headerPairs: 100 },
    });
    scope.post(
      '/api/brand-logos',
      {
        preHandler: scope.authenticate,
        schema: {
          summary:
            'Upload a store logo (multipart/form-data, field `file`); resized and re-encoded',
          consumes: ['multipart/form-data'],
          response: {
            201: brandLogoSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            413: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new AppError('multipart_required', 400, 'Send the logo as multipart/form-data');
        const part = await request.file();
        if (!part || part.fieldname !== 'file')
          throw new AppError('file_required', 400, 'Please choose an image for your logo');
        const bytes = await part.toBuffer().catch((error: unknown) => {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw errors.tooLarge('A logo may be at most 5 MB');
          throw error;
        });
        return reply.status(201).send(await logos.store(request.user!, bytes));
      },
    );
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/brand-logos/:sellerId/:logoFile',
    schema: { params: logoParams },
    handler: async (request, reply) => {
      const { sellerId, logoFile } = request.params as z.infer<typeof logoParams>;
      const logoId = logoFile.endsWith('.png') ? logoFile.slice(0, -'.png'.length) : '';
      if (!LOGO_ID_PATTERN.test(logoId)) throw logoNotFound();
      const logo = await logos.open(sellerId, logoId);
      if (!logo) throw logoNotFound();
      void reply
        .header('content-type', 'image/png')
        .header('content-length', String(logo.sizeBytes))
        .header('x-content-type-options', 'nosniff')
        // The name is the content's hash: a new logo is a new URL.
        .header('cache-control', 'public, max-age=31536000, immutable');
      if (request.method === 'HEAD') {
        logo.body.destroy();
        return reply.send('');
      }
      return reply.send(logo.body);
    },
  });
}
