import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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
};

/** One place that decides what a failure looks like on the wire; internals never leak on 5xx. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, payload: ErrorPayload) =>
      reply.status(status).send({ error: payload });

    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
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
