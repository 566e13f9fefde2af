import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isOutage } from '@lockdrop/db';
import { AppError } from './errors.js';

interface ErrorPayload {
  code: string;
  message: string;
  details?: unknown;
  errorId?: string;
}

const fastifyCodes: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body', message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_body',
    message: 'Request body is not valid JSON',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    code: 'invalid_body',
    message: 'The upload is not a multipart/form-data request with a boundary',
  },
};

/**
 * PostgreSQL's answer to text it cannot hold (a NUL byte, an invalid sequence): the request's
 * fault, refused before anything committed. The input guard should have caught it first.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Multipart bodies that end early or break their own framing (busboy's words). */
const MALFORMED_MULTIPART =
  /^(Unexpected end of (form|multipart data)|Part terminated early|Malformed part header|Multipart: Boundary not found)/;

const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** The request failed because its client went away (the proxy's upstream call was aborted for it). */
function clientHungUp(request: FastifyRequest, reply: FastifyReply, error: FastifyError): boolean {
  if (error.name === 'RequestAbortedError' || error.code === 'UND_ERR_ABORTED') return true;
  const gone = request.raw.destroyed || reply.raw.destroyed || request.raw.socket?.destroyed;
  return (
    Boolean(gone) && (error.code === 'ECONNRESET' || /aborted|premature close/i.test(error.message))
  );
}

/** One place that decides what a failure looks like on the wire; internals never leak on 5xx. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, payload: ErrorPayload) =>
      reply.status(status).send({ error: payload });

    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      // A limit that knows when it lifts says so in the header clients and proxies read.
      const retryAfter = (error.details as { retryAfterSeconds?: unknown } | undefined)
        ?.retryAfterSeconds;
      if (error.status === 429 && typeof retryAfter === 'number' && retryAfter > 0) {
        reply.header('retry-after', String(Math.ceil(retryAfter)));
      }
      return send(error.status, {
        code: error.code,
        message: error.message,
        details: error.details,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        field: [error.validationContext, ...issuePath(issue.instancePath)]
          .filter(Boolean)
          .join('.'),
        message: issue.message,
      }));
      const first = details[0];
      return send(400, {
        code: 'validation_failed',
        message: first ? `Invalid ${first.field}: ${first.message}` : 'Invalid request',
        details,
      });
    }
    if (UNSTORABLE_TEXT.has(String(error.code))) {
      return send(400, {
        code: 'invalid_characters',
        message: 'The request holds characters that cannot be stored',
      });
    }
    if (MALFORMED_MULTIPART.test(error.message)) {
      return send(400, { code: 'invalid_body', message: 'The upload ended early or is malformed' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return send(429, {
        code: 'rate_limited',
        message: error.message || 'Too many requests, please try again later',
      });
    }
    if (status >= 400 && status < 500) {
      const known = error.code ? fastifyCodes[error.code] : undefined;
      return send(status, known ?? { code: 'bad_request', message: error.message });
    }
    if (clientHungUp(request, reply, error)) {
      // Nobody is waiting for an answer: an everyday event (a closed tab, a dropped mobile
      // link, a load test ending), not a fault of ours.
      request.log.info({ reason: error.code ?? error.name }, 'client closed the connection early');
      return send(499, { code: 'client_closed_request', message: 'The client went away' });
    }
    if (isOutage(error)) {
      // The database (or the network to it) is away for now: say so, and when to try again.
      request.log.warn({ err: error }, 'a dependency is unavailable');
      reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
      return send(503, {
        code: 'service_unavailable',
        message: 'Lockdrop is briefly unavailable. Please try again in a moment.',
      });
    }
    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unhandled error');
    return send(500, { code: 'internal_error', message: 'An unexpected error occurred', errorId });
  });
}

/** The JSON 404 for a path no route matches. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    error: {
      code: 'not_found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}`,
    },
  });
}

function issuePath(instancePath: string): string[] {
  return instancePath.split('/').filter(Boolean);
}

const CLIENT_ERRORS: Record<
  string,
  { status: number; reason: string; code: string; message: string }
> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'Request headers are too large',
  },
  HPE_URI_TOO_LONG: {
    status: 414,
    reason: 'URI Too Long',
    code: 'uri_too_long',
    message: 'Request URL is too long',
  },
};
const UNREADABLE = {
  status: 400,
  reason: 'Bad Request',
  code: 'bad_request',
  message: 'The request could not be read',
};

/**
 * How long a connection answered with a parse error still reads, and drops, what its client
 * sends before it is closed.
 */
const LINGER_AFTER_CLIENT_ERROR_MS = 2_000;

/**
 * What Node's parser rejected, answered in the one error shape (Fastify's default is its own
 * JSON), then closed the way RFC 9112 §9.6 asks: our side first, while what the client is still
 * sending (the body of a request whose head was too large) is read and dropped for a moment.
 * Closing a socket with unread bytes resets it, and a reset can reach a proxy in front before
 * the proxy has read the answer, which it then discards: the client saw a reset, not the 431.
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  // The parser reports again for bytes that follow its first error; that answer already went.
  if (socket.writableEnded) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } = (error.code && CLIENT_ERRORS[error.code]) || UNREADABLE;
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const linger = setTimeout(() => socket.destroy(), LINGER_AFTER_CLIENT_ERROR_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.resume();
}
