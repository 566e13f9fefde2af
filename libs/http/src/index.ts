export { AppError, errors } from './errors.js';
export {
  createHttpServer,
  type EarlyAnswer,
  type HttpServer,
  type HttpServerOptions,
  type ReadinessCheck,
} from './server.js';
export { runUntilSignalled } from './lifecycle.js';
export { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js';
export { sendRouteNotFound } from './error-handler.js';
export type { ZodTypeProvider } from 'fastify-type-provider-zod';
export { REQUEST_DURATION_METRIC } from './metrics.js';
