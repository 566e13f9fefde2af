// The baselines the benchmark compares Lockdrop with, each in its own process so it gets a
// core of its own like a service does:
//   `fastify <port> <bodies.json>`: bare Fastify answering the same bytes Lockdrop answered
//     (the product JSON at /api/products/:id, the share page HTML at /product/:id);
//   `stream <port> <dir>`: a bare Node HTTP server streaming each request body to a file;
//   `durable-stream <port> <dir>`: the same server doing the work every Lockdrop upload does
//     whatever the architecture around it: the file part taken out of the multipart body,
//     hashed (SHA-256) on the way, flushed to disk (fsync) before the answer.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from '@fastify/busboy';
import Fastify from 'fastify';

const [mode, port, argument] = process.argv.slice(2);

if (mode === 'fastify') {
  const bodies = JSON.parse(await readFile(argument, 'utf8'));
  const app = Fastify({ logger: false });
  app.get('/api/products/:id', (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(bodies.productJson),
  );
  app.get('/product/:id', (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(bodies.shareHtml),
  );
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
} else {
  console.error(`unknown baseline ${mode}`);
  process.exit(2);
}
process.on('SIGTERM', () => process.exit(0));

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
      pipeline(file, hashing, createWriteStream(target, { flush: true }))
        .then(() => hash.digest('hex'))
        .then(resolve, reject);
    });
    parser.on('error', reject);
    request.pipe(parser);
  });
}
