import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPool, type Pool } from '@lockdrop/db';
import { AppError, createHttpServer, type HttpServer } from '../src/index.js';

let app: HttpServer;
let databaseUp = true;
let unreachableDatabase: Pool;

/** A port where nothing listens: Postgres is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  unreachableDatabase = createPool({
    connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/lockdrop`,
    schema: 'public',
  });
  app = await createHttpServer({
    name: 'probe',
    logLevel: 'silent',
    bodyLimit: 1024,
    readiness: {
      db: async () => {
        if (!databaseUp) throw new Error('connection refused');
      },
    },
  });
  app.post(
    '/things',
    {
      schema: {
        body: z.object({ title: z.string().min(1), price: z.number().positive() }),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (_request, reply) => reply.status(201).send({ id: 'thing-1' }),
  );
  app.get('/missing', async () => {
    throw new AppError('product_not_found', 404, 'Product not found');
  });
  app.get('/needs-the-database', async () => {
    await unreachableDatabase.query('SELECT 1');
    return { ok: true };
  });
  app.get('/boom', async () => {
    throw new Error('secret connection string postgres://admin:pw@db');
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await unreachableDatabase.end();
});

describe('createHttpServer', () => {
  it('answers 503 with Retry-After, in the error shape, while the database is unreachable', async () => {
    const response = await app.inject({ method: 'GET', url: '/needs-the-database' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      error: {
        code: 'service_unavailable',
        message: 'Lockdrop is briefly unavailable. Please try again in a moment.',
      },
    });
  });

  it('rejects a body that fails its zod schema with 400 and field details', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { title: '', price: -1 },
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'body.price',
      'body.title',
    ]);
  });

  it('accepts a valid body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { title: 'Ebook', price: 5 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: 'thing-1' });
  });

  it('maps an AppError to its status and code', async () => {
    const response = await app.inject({ url: '/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'product_not_found', message: 'Product not found' },
    });
  });

  it('hides internals of unexpected errors behind an errorId', async () => {
    const response = await app.inject({ url: '/boom' });
    expect(response.statusCode).toBe(500);
    const { error } = response.json();
    expect(error.code).toBe('internal_error');
    expect(error.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).not.toContain('postgres://');
  });

  it('answers 413 in the error shape when the body is over the limit', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { title: 'x'.repeat(2000), price: 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      payload: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
  });

  it('returns a JSON 404 for unknown routes', async () => {
    const response = await app.inject({ url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('keeps the caller request id and echoes it', async () => {
    const response = await app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'req-from-gateway-123' },
    });
    expect(response.headers['x-request-id']).toBe('req-from-gateway-123');
    const fresh = await app.inject({ url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness from its checks, naming what is down but not why', async () => {
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    databaseUp = false;
    const down = await app.inject({ url: '/readyz' });
    databaseUp = true;
    expect(down.statusCode).toBe(503);
    // Driver messages carry hosts and users: they go to the log, never to whoever asks.
    expect(down.json()).toEqual({ status: 'not_ready', checks: { db: 'down' } });
  });

  it('exposes Prometheus metrics including request durations', async () => {
    await app.inject({ url: '/healthz' });
    const response = await app.inject({ url: '/metrics' });
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toContain('service="probe"');
  });

  it('publishes an OpenAPI document generated from the zod schemas', async () => {
    const document = (await app.inject({ url: '/openapi.json' })).json();
    expect(
      document.paths['/things'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['title', 'price']);
    expect(document.paths['/healthz']).toBeUndefined();
  });
});

describe('a client that hangs up', () => {
  it('is an info line, not an unhandled error', async () => {
    const lines: { level: number; msg: string; reqId?: string; req?: { url: string } }[] = [];
    const server = await createHttpServer({
      name: 'hangup',
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
    server.get('/proxied', async () => {
      // What the gateway's proxy throws when the browser closed the connection mid-request.
      throw Object.assign(new Error('Request aborted'), {
        name: 'RequestAbortedError',
        code: 'UND_ERR_ABORTED',
      });
    });
    server.get('/broken', async () => {
      throw new Error('a real fault');
    });
    await server.ready();
    try {
      await server.inject({ method: 'GET', url: '/proxied' });
      await server.inject({ method: 'GET', url: '/broken' });
    } finally {
      await server.close();
    }
    const hungUp = lines.find(
      (line) => line.msg === 'request completed' && line.req?.url === '/proxied',
    )!;
    const ofHangUp = lines.filter((line) => line.reqId === hungUp.reqId);
    expect(ofHangUp.every((line) => line.level < 50)).toBe(true);
    expect(ofHangUp.map((line) => line.msg)).toContain('client closed the connection early');
    // A real fault is still an error.
    expect(lines.filter((line) => line.msg === 'unhandled error')).toHaveLength(1);
  });
});

describe('log lines', () => {
  it("never carry a request's credentials, whatever a route logs", async () => {
    const lines: string[] = [];
    const server = await createHttpServer({
      name: 'credentials',
      logStream: { write: (line) => void lines.push(line) },
    });
    server.get('/careless', async (request, reply) => {
      request.log.info({ req: request.raw, res: reply.raw }, 'a route logging the raw request');
      return reply.header('set-cookie', 'ld_refresh=refresh-secret').send({ ok: true });
    });
    await server.ready();
    try {
      const response = await server.inject({
        method: 'GET',
        url: '/careless',
        headers: { authorization: 'Bearer token-secret', cookie: 'ld_access=cookie-secret' },
      });
      expect(response.statusCode).toBe(200);
    } finally {
      await server.close();
    }
    const careless = lines.find((line) => line.includes('a route logging the raw request'))!;
    expect(JSON.parse(careless).req).toEqual({ method: 'GET', url: '/careless' });
    expect(lines.join('\n')).not.toMatch(/token-secret|cookie-secret|refresh-secret/);
  });
});

describe('answerEarly', () => {
  it('answers what it can before Fastify, and leaves the rest (even a throw) to the routes', async () => {
    const lines: string[] = [];
    const early = await createHttpServer({
      name: 'early',
      logLevel: 'error',
      logStream: { write: (line) => void lines.push(line) },
      answerEarly: (request, response) => {
        if (request.url === '/boom') throw new Error('early answer broke');
        if (request.url !== '/early') return false;
        response.writeHead(200, ['content-type', 'text/plain']).end('from memory');
        return true;
      },
    });
    early.get('/boom', async () => ({ answeredBy: 'route' }));
    const origin = await early.listen({ port: 0, host: '127.0.0.1' });
    try {
      const answered = await fetch(`${origin}/early`);
      expect(await answered.text()).toBe('from memory');
      expect(answered.headers.get('x-served-by')).toBeNull();

      const fallback = await fetch(`${origin}/boom`);
      expect(fallback.status).toBe(200);
      expect(await fallback.json()).toEqual({ answeredBy: 'route' });
      expect(fallback.headers.get('x-served-by')).toBe('early');
      expect(lines.join('')).toContain('early answer broke');

      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
      // Fastify's own timeouts still apply to the server made for it.
      // (Node's own defaults differ: requestTimeout 300 s against Fastify's 0, keep-alive 5 s
      // against 72 s.)
      expect(early.server.requestTimeout).toBe(0);
      expect(early.server.keepAliveTimeout).toBe(early.initialConfig.keepAliveTimeout);
      expect(early.server.keepAliveTimeout).toBe(72_000);
    } finally {
      await early.close();
    }
  });
});
