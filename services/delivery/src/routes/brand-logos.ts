import multipart from '@fastify/multipart';
import {
  brandLogoSchema,
  errorBodySchema,
  LOGO_ID_PATTERN,
  uploadedAvatarSchema,
  type StoreRight,
} from '@lockdrop/contracts';
import type { AuthUser } from '@lockdrop/auth';
import { AppError, errors, type HttpServer } from '@lockdrop/http';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { LOGO_UPLOAD_MAX_BYTES, type Avatars, type BrandLogos } from '../domain/brand-logos.js';

const imageParams = z.object({ ownerId: z.uuid(), imageFile: z.string().max(64) });

interface ImageRoutes {
  /** `/api/brand-logos` or `/api/avatars`. */
  path: string;
  summary: string;
  response: z.ZodType;
  store(user: AuthUser, upload: Buffer): Promise<unknown>;
  /** Who of a store's team may upload it: nobody acting for a store unless it says (libs/auth). */
  storeRight?: StoreRight;
  open(ownerId: string, imageId: string): Promise<{ body: Readable; sizeBytes: number } | null>;
  /** Sentences for people: no file chosen, too large, not found. */
  words: { choose: string; tooLarge: string; notFound: [code: string, message: string] };
}

/**
 * One upload route and one public read route for a re-encoded account image (previews/logo.ts):
 * the stored PNG is public and never changes under its name (content hash).
 */
function imageRoutes(app: HttpServer, image: ImageRoutes): void {
  const notFound = () => errors.notFound(...image.words.notFound);
  app.register(async (scope: HttpServer) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 0, parts: 1, fileSize: LOGO_UPLOAD_MAX_BYTES, headerPairs: 100 },
    });
    scope.post(
      image.path,
      {
        preHandler: scope.authenticate,
        config: { storeRight: image.storeRight },
        schema: {
          summary: image.summary,
          consumes: ['multipart/form-data'],
          response: {
            201: image.response,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            413: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new AppError('multipart_required', 400, 'Send the image as multipart/form-data');
        const part = await request.file();
        if (!part || part.fieldname !== 'file')
          throw new AppError('file_required', 400, image.words.choose);
        const bytes = await part.toBuffer().catch((error: unknown) => {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw errors.tooLarge(image.words.tooLarge);
          throw error;
        });
        return reply.status(201).send(await image.store(request.user!, bytes));
      },
    );
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: `${image.path}/:ownerId/:imageFile`,
    schema: { params: imageParams },
    handler: async (request, reply) => {
      const { ownerId, imageFile } = request.params as z.infer<typeof imageParams>;
      const imageId = imageFile.endsWith('.png') ? imageFile.slice(0, -'.png'.length) : '';
      if (!LOGO_ID_PATTERN.test(imageId)) throw notFound();
      const stored = await image.open(ownerId, imageId);
      if (!stored) throw notFound();
      void reply
        .header('content-type', 'image/png')
        .header('content-length', String(stored.sizeBytes))
        .header('x-content-type-options', 'nosniff')
        // The name is the content's hash: a new image is a new URL.
        .header('cache-control', 'public, max-age=31536000, immutable');
      if (request.method === 'HEAD') {
        stored.body.destroy();
        return reply.send('');
      }
      return reply.send(stored.body);
    },
  });
}

/** `/api/brand-logos`: a Pro seller's store logo. */
export function brandLogoRoutes(app: HttpServer, { logos }: { logos: BrandLogos }): void {
  imageRoutes(app, {
    path: '/api/brand-logos',
    summary: 'Upload a store logo (multipart/form-data, field `file`); resized and re-encoded',
    response: brandLogoSchema,
    // The brand is the owner's and an admin's (issue 28), like catalog's /api/brand.
    storeRight: 'brand:manage',
    store: (user, upload) => logos.store(user, upload),
    open: (ownerId, imageId) => logos.open(ownerId, imageId),
    words: {
      choose: 'Please choose an image for your logo',
      tooLarge: 'A logo may be at most 5 MB',
      notFound: ['logo_not_found', 'Logo not found'],
    },
  });
}

/** `/api/avatars`: anyone's profile picture, resized and re-encoded like a logo. */
export function avatarRoutes(app: HttpServer, { avatars }: { avatars: Avatars }): void {
  imageRoutes(app, {
    path: '/api/avatars',
    summary: 'Upload a profile picture (multipart/form-data, field `file`); resized and re-encoded',
    response: uploadedAvatarSchema,
    store: (user, upload) => avatars.store(user, upload),
    open: (ownerId, imageId) => avatars.open(ownerId, imageId),
    words: {
      choose: 'Please choose a picture to upload',
      tooLarge: 'Your picture may be at most 5 MB. Please choose a smaller one.',
      notFound: ['avatar_not_found', 'Picture not found'],
    },
  });
}
