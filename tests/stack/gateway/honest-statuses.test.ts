import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HttpServer } from '@lockdrop/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAVICON,
  SHELL,
  createStorefrontHarness,
  httpGetter,
  type StorefrontHarness,
} from './support.js';

/**
 * Issue 29 (Low): a path the app has no page for answers 404 (with the SPA's not-found screen),
 * and /favicon.ico answers on every page. Products' 404s: share-page.test.ts.
 */
let harness: StorefrontHarness;
let gateway: HttpServer;
let get: ReturnType<typeof httpGetter>;

beforeAll(async () => {
  harness = await createStorefrontHarness();
  gateway = harness.gateway;
  get = httpGetter(gateway);
});

afterAll(() => harness?.close());

describe('honest statuses', () => {
  it("answers 404 with the app's shell for a path the app has no page for", async () => {
    for (const path of ['/no-such-page', '/dashboard/nope', '/product', '/product/a/b']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type']).toContain('text/html');
      // The SPA boots and shows its not-found screen.
      expect(response.body).toBe(SHELL);
    }
  });

  it("answers 200 for the app's pages, parameters, a trailing slash and any letter case included", async () => {
    for (const path of [
      '/dashboard/payments',
      '/Dashboard/Payments/',
      '/s/ada-store',
      '/pricing/',
    ]) {
      expect((await get(path)).statusCode, path).toBe(200);
    }
  });

  it('serves the site icon at /favicon.ico', async () => {
    const response = await get('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.body).toBe(FAVICON);
  });

  it('takes every path as a page when the build has no route list (an older build)', async () => {
    const webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-old-build-'));
    try {
      await writeFile(path.join(webDist, 'index.html'), SHELL);
      const old = await harness.buildGateway({ WEB_DIST: webDist });
      const response = await old.inject({ url: '/no-such-page' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(SHELL);
    } finally {
      await rm(webDist, { recursive: true, force: true });
    }
  });
});
