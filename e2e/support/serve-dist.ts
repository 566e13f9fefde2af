/**
 * A small stand-in for the gateway's static serving, for developing e2e tests without the stack:
 *   npx tsx e2e/support/serve-dist.ts [port]      (default 4173; serves web/dist)
 * Same contract as the gateway: prerendered/<name>.html for its path when it exists, hashed assets,
 * the SPA shell (index.html) for every other path, JSON 404 under /api.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../web/dist/', import.meta.url));
const port = Number(process.argv[2] ?? 4173);

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The file that answers `pathname`, following the gateway's prerendered/ rule. */
export async function resolveFile(pathname: string): Promise<string> {
  const clean = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  const asset = join(dist, clean);
  if (clean !== '/' && (await isFile(asset))) return asset;
  const name = clean === '/' ? 'index' : clean.replace(/^\/+|\/+$/g, '');
  const prerendered = join(dist, 'prerendered', `${name}.html`);
  if (await isFile(prerendered)) return prerendered;
  return join(dist, 'index.html');
}

createServer(async (request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  if (pathname.startsWith('/api/')) {
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'not_found', message: 'Not found' } }));
    return;
  }
  if (pathname === '/readyz') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"status":"ok"}');
    return;
  }
  const file = await resolveFile(pathname);
  response.writeHead(200, {
    'Content-Type': types[extname(file)] ?? 'application/octet-stream',
    'Content-Security-Policy':
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
  });
  createReadStream(file).pipe(response);
}).listen(port, () => console.log(`web/dist on http://localhost:${port}`));
