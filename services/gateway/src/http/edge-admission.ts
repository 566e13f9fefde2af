import type {
  FastifyInstance,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { tooLarge } from './body-limit.js';

/**
 * Upload bodies skip the gateway where the delivery edge runs (issue 31): a Node hop on a file's
 * way costs about what the whole gateway does (docs/performance.md), so nginx
 * (deploy/base/nginx/delivery-edge.conf) passes the body to delivery itself, once the gateway
 * has admitted the request. nginx asks with `auth_request`: the same method, address and headers,
 * no body, and these headers of its own. The gateway runs every check it runs on a request it
 * forwards (the team membership, the per-address budget, the declared size against the upload
 * limit) and answers 204 instead of forwarding; a refusal keeps its status and error body in
 * headers, because auth_request passes on only 401 and 403 (nginx answers with them).
 *
 * A client sending the admission header itself gets a 204 and nothing uploaded: admission lets
 * nothing through on its own, only nginx acts on it.
 */
export const EDGE_ADMISSION_HEADER = 'x-lockdrop-edge-admission';
/** The Content-Length the client declared (nginx drops the body and its length). */
export const DECLARED_LENGTH_HEADER = 'x-lockdrop-declared-length';
/** On a refusal: the status the request gets. */
export const REFUSAL_STATUS_HEADER = 'x-lockdrop-refusal-status';
/** On a refusal: the error body the request gets, JSON in ASCII. */
export const REFUSAL_HEADER = 'x-lockdrop-refusal';

/** JSON with every character past ASCII escaped, as a header value must be. */
function asciiJson(text: string): string {
  return text.replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Attaches admission to the routes `admits` names, as they are registered (call it before
 * them): every other route is left without these hooks, so no other request pays for them.
 */
export function installEdgeAdmission(
  app: FastifyInstance,
  {
    admits,
    byteLimitFor,
  }: {
    /** The routes whose bodies the edge may send past the gateway, by their registered URL. */
    admits: (url: string) => boolean;
    byteLimitFor: (url: string, contentType: string | undefined) => number;
  },
): void {
  const isAdmission = (request: FastifyRequest) => request.headers[EDGE_ADMISSION_HEADER] === '1';

  // After every onRequest check has passed, in place of forwarding.
  const admit: preHandlerHookHandler = (request, reply, done) => {
    if (!isAdmission(request)) return done();
    const declared = Number(request.headers[DECLARED_LENGTH_HEADER] ?? Number.NaN);
    const limit = byteLimitFor(request.url, request.headers['content-type']);
    if (declared > limit) return done(tooLarge(limit));
    void reply.code(204).send();
  };

  const refusalInHeaders: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.statusCode < 300 || !isAdmission(request)) return done(null, payload);
    const body =
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.toString() : '{}';
    void reply
      .header(REFUSAL_STATUS_HEADER, String(reply.statusCode))
      .header(REFUSAL_HEADER, asciiJson(body))
      .removeHeader('content-type')
      .code(403);
    done(null, '');
  };

  const asList = <T>(hooks: T | T[] | undefined): T[] =>
    hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  app.addHook('onRoute', (route) => {
    if (!admits(route.url)) return;
    route.preHandler = [admit, ...asList(route.preHandler)];
    route.onSend = [...asList(route.onSend), refusalInHeaders];
  });
}
