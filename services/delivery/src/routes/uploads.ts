import multipart from '@fastify/multipart';
import {
  errorBodySchema,
  pdfStampingSchema,
  uploadedFileSchema,
  uploadUsageSchema,
  type UploadedFile,
} from '@lockdrop/contracts';
import { AppError, type HttpServer } from '@lockdrop/http';
import { PLANS } from '@lockdrop/plans';
import { z } from 'zod';
import { previewStatusSchema } from '../domain/preview-status.js';
import type { StampedCopies } from '../domain/stamped-copies.js';
import type { StoredFile, Uploads } from '../domain/uploads.js';

const STAMPING_MESSAGES = {
  available: null,
  not_pdf: 'Stamping applies to PDF files only',
  encrypted: 'This PDF is password-protected, so buyers get it unstamped',
  malformed: 'This PDF could not be read, so buyers get it unstamped',
  too_large: 'This PDF is too large to stamp, so buyers get it unstamped',
} as const;

const fileDetailsSchema = uploadedFileSchema.extend({
  /** Of the most recently changed product preview made from this file; null while no product uses it. */
  previewStatus: previewStatusSchema.nullable(),
});

const fileParams = z.object({ fileId: z.uuid() });
const largestPlanFileBytes = Math.max(...PLANS.map((plan) => plan.maxFileBytes));

function toUploadedFile(file: StoredFile): UploadedFile {
  const { id, fileName, sizeBytes, contentType, sha256, kind, createdAt } = file;
  return { id, fileName, sizeBytes, contentType, sha256, kind, createdAt: createdAt.toISOString() };
}

/**
 * `/api/uploads`: a seller's files. The body of an upload is streamed, never buffered. The
 * multipart parser is registered in a scope of its own: only these routes accept multipart.
 */
export function uploadRoutes(
  app: HttpServer,
  { uploads, stampedCopies }: { uploads: Uploads; stampedCopies: Pick<StampedCopies, 'statusOf'> },
): void {
  app.register(async (scope: HttpServer) => {
    await scope.register(multipart, {
      limits: {
        files: 1,
        fields: 10,
        parts: 11,
        fileSize: largestPlanFileBytes + 1,
        headerPairs: 100,
      },
    });

    scope.post(
      '/api/uploads',
      {
        preHandler: scope.authenticate,
        schema: {
          summary: 'Upload a file (multipart/form-data, one field named `file`)',
          consumes: ['multipart/form-data'],
          response: {
            201: uploadedFileSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            413: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = request.user!;
        if (!request.isMultipart())
          throw new AppError('multipart_required', 400, 'Send the file as multipart/form-data');
        try {
          await uploads.assertUploadAllowed(user);
          // One byte over the plan's limit reaches the meter, which fails the stream mid-upload.
          const part = await request.file({
            limits: { fileSize: (await uploads.maxBytesFor(user)) + 1 },
          });
          if (!part || part.fieldname !== 'file')
            throw new AppError('file_required', 400, 'Please upload a file');
          const incoming = {
            fileName: part.filename,
            stream: part.file,
            truncated: () => part.file.truncated,
          };
          const file = await uploads.store(user, incoming, request.id);
          return reply.status(201).send(toUploadedFile(file));
        } catch (error) {
          // The rest of a refused body is of no use: close rather than make the client send it all.
          reply.header('connection', 'close');
          throw error;
        }
      },
    );

    scope.get(
      '/api/uploads/usage',
      {
        preHandler: scope.authenticate,
        schema: {
          response: {
            200: uploadUsageSchema,
          },
        },
      },
      async (request) => uploads.usage(request.user!),
    );

    scope.get(
      '/api/uploads/:fileId',
      {
        preHandler: scope.authenticate,
        schema: { params: fileParams, response: { 200: fileDetailsSchema, 404: errorBodySchema } },
      },
      async (request) => {
        const file = await uploads.describe(request.user!, request.params.fileId);
        return { ...toUploadedFile(file), previewStatus: file.previewStatus };
      },
    );

    scope.get(
      '/api/uploads/:fileId/pdf-stamping',
      {
        preHandler: scope.authenticate,
        schema: {
          summary:
            "Whether buyers get this PDF stamped with their e-mail (a product's stampPdfs option)",
          params: fileParams,
          response: { 200: pdfStampingSchema, 404: errorBodySchema, 503: errorBodySchema },
        },
      },
      async (request) => {
        const file = await uploads.describe(request.user!, request.params.fileId);
        const status = await stampedCopies.statusOf(file);
        return { status, message: STAMPING_MESSAGES[status] };
      },
    );

    scope.delete(
      '/api/uploads/:fileId',
      {
        preHandler: scope.authenticate,
        schema: {
          params: fileParams,
          response: { 204: z.undefined(), 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        await uploads.remove(request.user!, request.params.fileId);
        return reply.status(204).send();
      },
    );
  });
}
