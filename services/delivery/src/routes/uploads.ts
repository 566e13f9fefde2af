import multipart from '@fastify/multipart';
import { assertScope } from '@lockdrop/auth';
import {
  errorBodySchema,
  MAX_FILES_PER_PRODUCT,
  pdfStampingSchema,
  type ApiKeyScope,
  uploadedFileSchema,
  uploadUsageSchema,
  v1FileSchema,
  v1FileUploadSchema,
  v1UploadedFileSchema,
  type UploadedFile,
} from '@lockdrop/contracts';
import { AppError, type HttpServer } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PLANS } from '@lockdrop/plans';
import { z } from 'zod';
import { previewStatusSchema } from '../domain/preview-status.js';
import type { ProductAttachments } from '../domain/product-attachments.js';
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
/** The multipart part of an API upload naming the product the file is for. */
const PRODUCT_ID_FIELD = 'productId';
const largestPlanFileBytes = Math.max(...PLANS.map((plan) => plan.maxFileBytes));

/** A preHandler passing a key that holds either scope (the last one's 403 otherwise). */
function anyScope(app: HttpServer, first: ApiKeyScope, second: ApiKeyScope) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await app.requireApiScope(first)(request, reply);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 403) throw error;
      await app.requireApiScope(second)(request, reply);
    }
  };
}

function toUploadedFile(file: StoredFile): UploadedFile {
  const { id, fileName, sizeBytes, contentType, sha256, kind, createdAt } = file;
  return { id, fileName, sizeBytes, contentType, sha256, kind, createdAt: createdAt.toISOString() };
}

const v1Security = [{ apiKey: [] }];
const v1Tags = ['v1: files'];
const v1ErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  429: errorBodySchema,
};

/**
 * `/api/uploads`: a seller's files; `/api/v1/files`: the same for an API key. The body of an upload is streamed, never buffered. The
 * multipart parser is registered in a scope of its own: only these routes accept multipart.
 */
export function uploadRoutes(
  app: HttpServer,
  {
    uploads,
    stampedCopies,
    attachments,
  }: {
    uploads: Uploads;
    stampedCopies: Pick<StampedCopies, 'statusOf'>;
    attachments: ProductAttachments;
  },
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

    /**
     * The one upload path, for the dashboard's session and for an API key alike: the plan's
     * monthly quota and file-size limit first, then the body streamed to storage, never buffered.
     * `beforeFile` sees the text parts sent before the file, before a byte of it is read (what it
     * answers is `checked`); the parts after it are read once it is stored (`fieldsAfter`).
     */
    const receiveUpload = async <T = undefined>(
      request: FastifyRequest,
      reply: FastifyReply,
      beforeFile?: (fields: Map<string, string>) => Promise<T>,
    ): Promise<{ file: StoredFile; checked: T | undefined; fieldsAfter: Map<string, string> }> => {
      const user = request.user!;
      if (!request.isMultipart())
        throw new AppError('multipart_required', 400, 'Send the file as multipart/form-data');
      try {
        await uploads.assertUploadAllowed(user);
        // One byte over the plan's limit reaches the meter, which fails the stream mid-upload.
        const parts = request.parts({
          limits: { fileSize: (await uploads.maxBytesFor(user)) + 1 },
        });
        const fieldsBefore = new Map<string, string>();
        const fieldsAfter = new Map<string, string>();
        let file: StoredFile | null = null;
        let checked: T | undefined;
        for await (const part of parts) {
          if (part.type === 'field') {
            (file ? fieldsAfter : fieldsBefore).set(part.fieldname, String(part.value));
            continue;
          }
          if (file || part.fieldname !== 'file')
            throw new AppError('file_required', 400, 'Please upload a file');
          checked = await beforeFile?.(fieldsBefore);
          const incoming = {
            fileName: part.filename,
            stream: part.file,
            truncated: () => part.file.truncated,
          };
          file = await uploads.store(user, incoming, request.id);
        }
        if (!file) throw new AppError('file_required', 400, 'Please upload a file');
        return { file, checked, fieldsAfter };
      } catch (error) {
        // The rest of a refused body is of no use: close rather than make the client send it all.
        reply.header('connection', 'close');
        throw error;
      }
    };

    scope.post(
      '/api/uploads',
      {
        preHandler: scope.authenticate,
        config: { storeRight: 'files:write' },
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
        const { file } = await receiveUpload(request, reply);
        return reply.status(201).send(toUploadedFile(file));
      },
    );

    scope.post(
      '/api/v1/files',
      {
        preHandler: scope.requireApiScope('files:write'),
        schema: {
          summary: 'Upload a file, optionally adding it to one of your products',
          description:
            'multipart/form-data: an optional `productId` part, then one part named `file`. ' +
            'Streamed like the dashboard upload, under the same plan limits: the monthly upload ' +
            'quota (403) and the largest file the plan allows (413). With `productId` (send it ' +
            'before `file`; it also needs the products:write scope) the product is checked ' +
            'before the file is read — 404 when it is not one of yours, 409 when it already ' +
            `holds ${MAX_FILES_PER_PRODUCT} files — and the file is appended to its files: ` +
            'uploads to one product at once all end up in it. Without it, give the returned ' +
            '`id` to POST /api/v1/products as `fileId`.',
          tags: v1Tags,
          security: v1Security,
          consumes: ['multipart/form-data'],
          // For the document only: the parts are read as a stream (request.parts), never parsed
          // into a body, so the body this validates is always absent.
          body: v1FileUploadSchema,
          response: {
            201: v1UploadedFileSchema,
            ...v1ErrorResponses,
            409: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = request.user!;
        const upload = await receiveUpload(request, reply, async (fields) => {
          const named = fields.get(PRODUCT_ID_FIELD);
          if (named === undefined) return null;
          // Adding a file changes what the product's buyers get: a product write.
          assertScope(user.apiKey!, 'products:write');
          const id = z.uuid().safeParse(named.trim());
          // A malformed id names no product: the same 404 as every /api/v1 product route.
          if (!id.success) throw new AppError('product_not_found', 404, 'Product not found');
          const productId = id.data.toLowerCase();
          await attachments.assertAttachable(user.id, productId);
          return productId;
        });
        const { file, fieldsAfter } = upload;
        const productId = upload.checked ?? null;
        if (fieldsAfter.has(PRODUCT_ID_FIELD))
          throw new AppError(
            'product_id_after_file',
            400,
            `Send productId before the file. Your file was kept in your files (id ${file.id}) ` +
              'without a product',
            { fileId: file.id },
          );
        if (productId) await attachments.attach(user.id, productId, file, request.id);
        return reply
          .status(201)
          .send({ object: 'file' as const, ...toUploadedFile(file), productId });
      },
    );

    scope.get(
      '/api/v1/files/:fileId',
      {
        // Catalog asks this, with the key's token, when a key creates or edits a product.
        preHandler: anyScope(scope, 'files:write', 'products:write'),
        schema: {
          summary: 'Retrieve one of the seller’s files',
          description: 'Needs the files:write or the products:write scope.',
          tags: v1Tags,
          security: v1Security,
          params: fileParams,
          response: { 200: v1FileSchema, ...v1ErrorResponses },
        },
      },
      async (request) => ({
        object: 'file' as const,
        ...toUploadedFile(await uploads.describe(request.user!, request.params.fileId)),
      }),
    );

    scope.get(
      '/api/uploads/usage',
      {
        preHandler: scope.authenticate,
        config: { storeRight: 'files:read' },
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
        config: { storeRight: 'files:read' },
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
        config: { storeRight: 'files:read' },
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
        config: { storeRight: 'files:write' },
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
