import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/**
 * U+0000 is valid JSON and a valid URL escape (`%00`) but PostgreSQL cannot store it in text:
 * left alone it turns a harmless form into a 500. No real name, title or reference holds one,
 * so every service refuses it here, at the one boundary they share, before any route runs.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (holdsNul(request.query)) return done(nulError('query'));
    if (holdsNul(request.params)) return done(nulError('params'));
    if (holdsNul(request.body)) return done(nulError('body'));
    done();
  });
}

export const nulError = (part: string) =>
  new AppError(
    'invalid_characters',
    400,
    `The ${part} holds a NUL character, which is not allowed`,
  );

function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Only what a parser built from text. Raw bodies (signed webhooks, uploads, the gateway's
  // proxied request streams) are checked by their own parsers; walking a stream would walk its
  // socket, its server and everything they reference, for ever.
  if (!isParsedValue(value) || depth > 32) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || holdsNul(item, depth + 1)) return true;
  }
  return false;
}

function isParsedValue(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Buffer.isBuffer(value) &&
    !(value instanceof EventEmitter)
  );
}
