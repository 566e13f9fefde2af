import type { OutgoingHttpHeaders } from 'node:http';
import {
  downloadAccessSchema,
  downloadLinkRequestSchema,
  downloadLinkSchema,
  errorBodySchema,
  purchaseFilesSchema,
  receiptSessionSchema,
  zipLinkRequestSchema,
} from '@lockdrop/contracts';
import { AppError, type HttpServer } from '@lockdrop/http';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { DownloadLink, Downloads } from '../domain/downloads.js';
import { attachmentDisposition } from '../domain/file-name.js';
import { RECEIPT_SESSION_MS, type ReceiptSessions } from '../domain/receipt-sessions.js';
import { hashBrowserKey, RECEIPT_COOKIE } from '@lockdrop/auth';
import { claimantOf } from './claimant.js';

/** Headers of every `/dl` answer, errors included: the token is a credential, never cached or referred. */
const DOWNLOAD_HEADERS = {
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'accept-ranges': 'bytes',
};

/** Life of the presigned bucket URL a download redirects to (`s3-redirect`). */
const SIGNED_URL_SECONDS = 60;

/** The internal locations of deploy/base/nginx/delivery-edge.conf that serve the data directory. */
const X_ACCEL_PREFIX = '/_lockdrop/files';

const firstHeader = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

/** Every answer that may hand out a link. */
const LINK_RESPONSES = {
  200: downloadLinkSchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  410: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** An answer that says when to ask again (an hourly budget spent, a copy being made) carries Retry-After. */
function retryAfter(reply: FastifyReply, error: unknown): void {
  if (!(error instanceof AppError)) return;
  const { retryAfterSeconds } = (error.details ?? {}) as { retryAfterSeconds?: number };
  if (retryAfterSeconds) reply.header('retry-after', String(retryAfterSeconds));
}

/** A link as the API answers it; an exhausted hourly budget or a copy being made says when to try again. */
async function answerLink(reply: FastifyReply, issue: () => Promise<DownloadLink>) {
  reply.header('cache-control', 'no-store');
  try {
    const link = await issue();
    return {
      downloadUrl: `/dl/${link.token}`,
      fileName: link.fileName,
      sizeBytes: link.sizeBytes,
      expiresAt: link.expiresAt.toISOString(),
    };
  } catch (error) {
    retryAfter(reply, error);
    throw error;
  }
}

export interface DownloadRouteOptions {
  downloads: Downloads;
  receiptSessions: ReceiptSessions;
  secureCookies: boolean;
  /** Who sends the bytes once delivery has checked the request (see config.ts). */
  offload: 'none' | 'x-accel' | 's3-redirect';
  /** Completed downloads are recorded after the response; the caller awaits them on shutdown. */
  track(work: Promise<void>): void;
}

/** `/api/downloads*` (links, access, receipt sessions) and `/dl/:token` (the file itself). */
export function downloadRoutes(
  app: HttpServer,
  { downloads, receiptSessions, secureCookies, offload, track }: DownloadRouteOptions,
): void {
  app.post(
    '/api/downloads',
    {
      preHandler: app.identify,
      schema: {
        summary:
          'A download link for one file of a purchase (`fileId`, else the main file), valid 1 hour',
        body: downloadLinkRequestSchema,
        response: LINK_RESPONSES,
      },
    },
    async (request, reply) =>
      answerLink(reply, () =>
        downloads.issueLink(claimantOf(request), request.body.purchaseId, request.body.fileId),
      ),
  );

  app.post(
    '/api/downloads/zip',
    {
      preHandler: app.identify,
      schema: {
        summary: 'A download link for every file of a purchase as one ZIP, valid 1 hour',
        body: zipLinkRequestSchema,
        response: LINK_RESPONSES,
      },
    },
    async (request, reply) =>
      answerLink(reply, () =>
        downloads.issueArchiveLink(claimantOf(request), request.body.purchaseId),
      ),
  );

  app.get(
    '/api/downloads/files',
    {
      preHandler: app.identify,
      schema: {
        summary: 'Every file a purchase may download, and the size of all of them as one ZIP',
        querystring: z.object({ purchaseId: z.uuid() }),
        response: {
          200: purchaseFilesSchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return downloads.filesOf(claimantOf(request), request.query.purchaseId);
    },
  );

  app.get(
    '/api/downloads/access',
    {
      preHandler: app.identify,
      schema: {
        summary:
          "Whether the caller may download the product's file (product page: 'You have full access to this product')",
        querystring: z.object({ productId: z.uuid() }),
        response: { 200: downloadAccessSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return downloads.accessTo(claimantOf(request), request.query.productId);
    },
  );

  app.post(
    '/api/downloads/receipt-session',
    {
      schema: {
        summary:
          "Opens an account-free download session from the receipt e-mail's link (sets the ld_receipt cookie)",
        body: z.object({ token: z.string().min(16).max(200) }),
        response: { 200: receiptSessionSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { key, purchase } = await receiptSessions.open(
        request.body.token,
        hashBrowserKey(request.cookies[RECEIPT_COOKIE]),
      );
      reply.header('cache-control', 'no-store').setCookie(RECEIPT_COOKIE, key, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        path: '/api',
        maxAge: RECEIPT_SESSION_MS / 1000,
      });
      return { purchase };
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/dl/:token',
    schema: {
      summary:
        'The purchased file (Range requests resume), or a ZIP of all its files; the link is the credential',
      // Any string: whatever is not a token of ours is answered 403 download_link_invalid, like a forged one.
      params: z.object({ token: z.string() }),
      response: {
        200: z.any().describe('The file'),
        206: z.any().describe('The requested byte range of the file'),
        403: errorBodySchema,
        404: errorBodySchema,
        410: errorBodySchema,
        416: errorBodySchema,
        503: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      reply.headers(DOWNLOAD_HEADERS);
      const redemption = await downloads
        .redeem(request.params.token, {
          range: request.headers.range,
          ifRange: firstHeader(request.headers['if-range']),
        })
        .catch((error: unknown) => {
          retryAfter(reply, error);
          throw error;
        });
      if (redemption.kind === 'unsatisfiable') {
        return reply
          .status(416)
          .header('content-range', `bytes */${redemption.sizeBytes}`)
          .send({
            error: {
              code: 'range_not_satisfiable',
              message: 'The requested range is outside the file',
            },
          });
      }
      if (redemption.kind === 'archive') {
        // Made as it is sent, so there is no range to resume and nothing for nginx or S3 to send.
        reply
          .type('application/zip')
          .header('content-disposition', attachmentDisposition(redemption.fileName))
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('accept-ranges', 'none')
          .header('content-length', redemption.sizeBytes);
        if (request.method === 'HEAD') return reply.send();
        const body = redemption.open();
        // Same rule as a file: counted once every byte was handed over ('finish', not 'close').
        reply.raw.once('finish', () => track(redemption.recordCompleted(request.id)));
        return reply.send(body);
      }
      const { file, range } = redemption;
      reply
        .type(file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('etag', redemption.etag);
      if (offload === 's3-redirect' && request.method === 'GET') {
        // The bucket answers the Range (the browser repeats it after the redirect); the URL
        // works for a minute, long enough to follow and too short to pass around.
        const url = await redemption.signedUrl(
          SIGNED_URL_SECONDS,
          attachmentDisposition(file.fileName),
        );
        if (url) {
          if (redemption.reachesEnd) track(redemption.recordCompleted(request.id));
          return reply.redirect(url, 302);
        }
      }
      if (offload === 'x-accel' && redemption.localKey && request.method === 'GET') {
        // nginx sends the bytes (sendfile) and answers the Range itself; delivery has decided
        // whether one applies (If-Range), so a whole-file answer goes where nginx ignores it.
        // Completion is counted when the last byte is handed over, not when it arrived.
        if (redemption.reachesEnd) track(redemption.recordCompleted(request.id));
        return reply
          .header(
            'x-accel-redirect',
            `${X_ACCEL_PREFIX}/${range ? 'ranged' : 'whole'}/${redemption.localKey}`,
          )
          .send();
      }
      reply.header('content-length', redemption.contentLength);
      if (range)
        reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`);
      if (request.method === 'HEAD') return reply.send();

      // The rule for download.completed: this response carried the file's last byte and every
      // byte of it was handed to the network ('finish'; a dropped connection only 'close's).
      // One listener per response, so at most one event per response.
      const countCompletion = () => {
        if (redemption.reachesEnd)
          reply.raw.once('finish', () => track(redemption.recordCompleted(request.id)));
      };
      const local = await redemption.openLocal();
      if (local) {
        // Delivery writes the bytes itself, from reused buffers (storage/file-sender.ts); the
        // headers are the reply's, and the onResponse hooks (log, metrics) still run.
        countCompletion();
        reply.hijack();
        reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
        await local.sendTo(reply.raw).catch((error: unknown) => {
          if (!reply.raw.destroyed)
            request.log.warn({ err: error }, 'download stopped while it was being sent');
          reply.raw.destroy();
        });
        return reply;
      }
      const body = await redemption.open();
      countCompletion();
      return reply.send(body);
    },
  });
}
