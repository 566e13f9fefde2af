import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const baseUrl = (process.env.E2E_BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 375, height: 812 };

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** A new tab at `path` (relative to the base URL), loaded and idle. */
  open(path: string, viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile, so no cookie or cache leaks between test files. `hostsAt127`:
 * names (`*.example.test`) this browser resolves to 127.0.0.1, as a seller's DNS would send a
 * buyer on their custom domain to Lockdrop's edge.
 */
export async function launchBrowser({
  javaScriptEnabled = true,
  hostsAt127 = [] as string[],
} = {}): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'lockdrop-e2e-'));
  const resolverRules = hostsAt127.map((pattern) => `MAP ${pattern} 127.0.0.1`).join(',');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: resolverRules
      ? [...CHROMIUM_ARGS, `--host-resolver-rules=${resolverRules}`]
      : CHROMIUM_ARGS,
    baseURL: baseUrl,
    viewport: DESKTOP,
    javaScriptEnabled,
  });
  return {
    context,
    async open(path, viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.goto(path, { waitUntil: 'networkidle' });
      return page;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
