import { Transform } from 'node:stream';
import { AppError } from '@lockdrop/http';
import { formatFileSize } from '@lockdrop/plans';
import type { FastifyInstance } from 'fastify';

/** A body over `limit` (also refused at the edge's admission: edge-admission.ts). */
export const tooLarge = (limit: number) =>
  new AppError('payload_too_large', 413, `Request body is larger than ${formatFileSize(limit)}`);

/**
 * The proxy streams bodies to services unparsed, so Fastify's own bodyLimit never applies.
 * Refuse declared oversize bodies before a byte is forwarded, and cut undeclared (chunked)
 * ones once they pass the limit. A declared length within the limit is not counted: Node's
 * parser ends a body without chunks at that length (bytes beyond it are the next request), and
 * a counting stage per 64 KiB of a 1 GB upload is CPU the gateway would spend on every file.
 */
export function installBodyLimits(
  app: FastifyInstance,
  limitFor: (url: string, contentType: string | undefined) => number,
): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // Most requests (every storefront read) carry no body: nothing to count.
    if (
      request.headers['content-length'] === undefined &&
      request.headers['transfer-encoding'] === undefined
    )
      return done(null, payload);
    const limit = limitFor(request.url, request.headers['content-type']);
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    if (declared > limit) return done(tooLarge(limit));
    if (request.headers['transfer-encoding'] === undefined) return done(null, payload);
    let seen = 0;
    done(
      null,
      payload.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            seen += chunk.length;
            if (seen > limit) callback(tooLarge(limit));
            else callback(null, chunk);
          },
        }),
      ),
    );
  });
}
