import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, launchBrowser, type Browser } from './support/browser';
import { seriousViolations } from './support/axe';
import { publicPages } from './support/public-pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

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
