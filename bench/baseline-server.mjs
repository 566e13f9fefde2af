// The baselines the benchmark compares Lockdrop with, each in its own process so it gets a
// core of its own like a service does:
//   `fastify <port> <bodies.json>`: bare Fastify answering the same bytes Lockdrop answered
//     (the product JSON at /api/products/:id, the share page HTML at /product/:id), brotli or
//     gzip compressed once at start when the request accepts it, as a browser's does;
//   `webhook-floor <port> <databaseUrl> <secret>`: what a payment notification cannot skip,
//     whatever the architecture: check its HMAC, `INSERT … ON CONFLICT DO NOTHING` it under its
//     (provider, event) key, commit, answer 200;
//   `stream <port> <dir>`: a bare Node HTTP server streaming each request body to a file;
//   `durable-stream <port> <dir>`: the same server doing the work every Lockdrop upload does
//     whatever the architecture around it: the file part taken out of the multipart body,
//     hashed (SHA-256) on the way, written in 1 MiB pieces, flushed to disk (fsync) before the
//     answer;
//   `proxy <port> <upstreamPort>`: the barest Node hop, each request piped through node:http to
//     another server on this machine (what any Node process in front of the floor costs).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import busboy from '@fastify/busboy';
import Fastify from 'fastify';
import pg from 'pg';

const [mode, port, argument] = process.argv.slice(2);

if (mode === 'fastify') {
  const bodies = JSON.parse(await readFile(argument, 'utf8'));
  const encoded = (text) => ({
    identity: text,
    br: brotliCompressSync(text),
    gzip: gzipSync(text),
  });
  const product = encoded(bodies.productJson);
  const share = encoded(bodies.shareHtml);
  const answer = (variants, type) => (request, reply) => {
    const accepted = request.headers['accept-encoding'] ?? '';
    const encoding = /\bbr\b/.test(accepted)
      ? 'br'
      : /\bgzip\b/.test(accepted)
        ? 'gzip'
        : 'identity';
    reply.type(type).header('vary', 'accept-encoding');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(variants[encoding]);
  };
  const app = Fastify({ logger: false });
  app.get('/api/products/:id', answer(product, 'application/json; charset=utf-8'));
  app.get('/product/:id', answer(share, 'text/html; charset=utf-8'));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
} else if (mode === 'webhook-floor') {
  const [databaseUrl, secret] = [argument, process.argv[5]];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(`CREATE SCHEMA IF NOT EXISTS bench_floor;
    CREATE TABLE IF NOT EXISTS bench_floor.webhook_events (
      provider text NOT NULL, event_id text NOT NULL, payload jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (provider, event_id))`);
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/webhook', async (request, reply) => {
    const expected = createHmac('sha256', secret).update(request.body).digest();
    const given = Buffer.from(String(request.headers['flutterwave-signature'] ?? ''), 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply
        .code(401)
        .send({ error: { code: 'invalid_signature', message: 'Bad signature' } });
    const notification = JSON.parse(request.body.toString('utf8'));
    await pool.query(
      `INSERT INTO bench_floor.webhook_events (provider, event_id, payload) VALUES ('sandbox', $1, $2)
       ON CONFLICT DO NOTHING`,
      [String(notification.data.id), request.body.toString('utf8')],
    );
    return { received: true };
  });
  app.get('/', () => ({ ok: true }));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
} else if (mode === 'stream' || mode === 'durable-stream') {
  const store =
    mode === 'stream'
      ? (request, target) => pipeline(request, createWriteStream(target))
      : storeDurably;
  let next = 0;
  const server = http.createServer(async (request, response) => {
    const target = path.join(argument, `upload-${process.pid}-${next++}`);
    try {
      await store(request, target);
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    } catch {
      response.writeHead(500).end();
    } finally {
      await rm(target, { force: true });
    }
  });
  server.listen(Number(port), '127.0.0.1');
} else if (mode === 'proxy') {
  const upstreamPort = Number(argument);
  const agent = new http.Agent({ keepAlive: true });
  http
    .createServer((request, response) => {
      const forwarded = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: upstreamPort,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.writeHead(502).end());
      request.pipe(forwarded);
    })
    .listen(Number(port), '127.0.0.1');
} else {
  console.error(`unknown baseline ${mode}`);
  process.exit(2);
}
process.on('SIGTERM', () => process.exit(0));

const WRITE_CHUNK_BYTES = 1 << 20;

function storeDurably(request, target) {
  return new Promise((resolve, reject) => {
    const parser = busboy({ headers: request.headers });
    parser.on('file', (_field, file) => {
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      pipeline(file, hashing, gatheredFile(target))
        .then(() => hash.digest('hex'))
        .then(resolve, reject);
    });
    parser.on('error', reject);
    request.pipe(parser);
  });
}

/**
 * The file written in 1 MiB vectored writes of the pieces received, then fsynced, as delivery
 * writes uploads: the parser's 16–64 KiB pieces each cost a threadpool round trip, and a floor
 * that paid that would be a weaker baseline.
 */
function gatheredFile(target) {
  let handle;
  let held = [];
  let heldBytes = 0;
  const writeHeld = async () => {
    let pieces = held;
    let remaining = heldBytes;
    held = [];
    heldBytes = 0;
    while (remaining > 0) {
      remaining -= (await handle.writev(pieces)).bytesWritten;
      if (remaining > 0) pieces = [Buffer.concat(pieces).subarray(-remaining)];
    }
  };
  return new Writable({
    construct(done) {
      open(target, 'wx').then((opened) => ((handle = opened), done()), done);
    },
    write(chunk, _encoding, done) {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < WRITE_CHUNK_BYTES) return done();
      writeHeld().then(() => done(), done);
    },
    final(done) {
      writeHeld()
        .then(() => handle.sync())
        .then(() => done(), done);
    },
    destroy(error, done) {
      (handle?.close() ?? Promise.resolve()).then(() => done(error), done);
    },
  });
}
