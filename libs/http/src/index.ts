export { AppError, errors } from './errors.js';
export {
  createHttpServer,
  type HttpServer,
  type HttpServerOptions,
  type ReadinessCheck,
} from './server.js';
export { runUntilSignalled } from './lifecycle.js';
export { REQUEST_ID_HEADER } from './request-id.js';
export { sendRouteNotFound } from './error-handler.js';
export type { ZodTypeProvider } from 'fastify-type-provider-zod';
