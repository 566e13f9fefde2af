import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, launchBrowser, type Browser } from './support/browser';
import { publicPages } from './support/public-pages';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Serious and critical axe-core violations, described one per line. */
async function seriousViolations(page: Page): Promise<string[]> {
  // evaluate() is not subject to the page's CSP, unlike an injected <script>.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
}

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
])('axe-core at %s width', (_name, viewport) => {
  it.each(publicPages.map((p) => p.path))(
    '%s has no serious or critical violations',
    async (path) => {
      const page = await browser.open(path, viewport);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    },
  );
});

describe('accessibility of interactive parts', () => {
  it('the open mobile menu has no serious violations', async () => {
    const page = await browser.open('/', MOBILE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('the contact form shows labelled errors when submitted empty', async () => {
    const page = await browser.open('/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Please enter your name').isVisible()).toBe(true);
    expect(await page.getByText('Please enter a valid e-mail address').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('keyboard users get a skip link and a visible focus ring', async () => {
    const page = await browser.open('/');
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.innerText()).toBe('Skip to content');
    expect(await focused.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(outline.style).not.toBe('none');
    expect(outline.width).toBeGreaterThan(0);
    await page.close();
  });
});
