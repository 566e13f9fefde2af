import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { buildApp } from '../../src/app.js';
import { configSchema } from '../../src/config.js';

/**
 * Real gateways on real HTTP for one test file (what passes before Fastify is the HTTP server's,
 * which `inject` never reaches): each started with `env` over a web build of one page and a Redis
 * key prefix of its own, all closed by `close()`.
 */
export async function gatewaysForTests() {
  const webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-gateway-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const started: HttpServer[] = [];
  return {
    /** The new gateway's base URL, e.g. http://127.0.0.1:41234. */
    async start(env: Record<string, string>): Promise<string> {
      const gateway = await buildApp(
        loadConfig(configSchema, {
          WEB_DIST: webDist,
          LOG_LEVEL: 'silent',
          REDIS_KEY_PREFIX: `gateway-test-${randomUUID()}:`,
          ...env,
        }),
      );
      started.push(gateway);
      await gateway.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(gateway.server.address() as { port: number }).port}`;
    },
    async close(): Promise<void> {
      for (const gateway of started) await gateway.close();
      await rm(webDist, { recursive: true, force: true });
    },
  };
}
