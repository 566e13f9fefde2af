import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { publicPages } from './support/public-pages';

async function fetchPage(path: string): Promise<{ html: string; csp: string }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { Accept: 'text/html' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/html/);
  return { html: await response.text(), csp: response.headers.get('content-security-policy')! };
}

const fetchHtml = async (path: string) => (await fetchPage(path)).html;

const metaContent = (html: string, attribute: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attribute}="${key}" content="([^"]+)"`).exec(html)?.[1];

describe('prerendered public pages (fetched without JavaScript)', () => {
  it.each(publicPages.map((p) => [p.path, p.heading]))(
    '%s carries its heading, title, description and Open Graph tags',
    async (path, heading) => {
      const { html, csp } = await fetchPage(path);
      const h1s = [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) =>
        m[1]?.replace(/<[^>]+>/g, ''),
      );
      expect(h1s).toEqual([heading]);
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(metaContent(html, 'name', 'description')).toBeTruthy();
      expect(metaContent(html, 'property', 'og:title')).toBe(
        /<title>([^<]+)<\/title>/.exec(html)?.[1],
      );
      expect(metaContent(html, 'property', 'og:description')).toBe(
        metaContent(html, 'name', 'description'),
      );
      expect(metaContent(html, 'property', 'og:type')).toBe('website');
      // Scripts come from our own origin, or are the build's own inline boot script, which the
      // gateway's CSP allows by hash (and a browser would refuse to run otherwise).
      const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
      expect(inline).toHaveLength(1);
      for (const [, code] of inline) {
        const hash = `'sha256-${createHash('sha256').update(code!).digest('base64')}'`;
        expect(scriptSrc).toContain(hash);
      }
      expect(scriptSrc).not.toContain("'unsafe-inline'");
    },
  );

  it('serves the plain SPA shell for other routes', async () => {
    const html = await fetchHtml('/dashboard');
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('og:title');
  });
});

describe('public pages with JavaScript turned off', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ javaScriptEnabled: false });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(publicPages.map((p) => [p.path, p.heading]))(
    '%s shows its content',
    async (path, heading) => {
      const page = await browser.open(path);
      expect(await page.locator('h1').allInnerTexts()).toEqual([heading]);
      expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
      await page.close();
    },
  );
});
