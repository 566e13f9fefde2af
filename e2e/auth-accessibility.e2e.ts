import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { seriousViolations } from './support/axe';
import { DESKTOP, MOBILE, launchBrowser, type Browser } from './support/browser';

let visitor: Browser;
let seller: Browser;
beforeAll(async () => {
  [visitor, seller] = await Promise.all([launchBrowser(), launchBrowser()]);
  await signUpSeller(seller.context);
});
afterAll(async () => {
  await Promise.all([visitor?.close(), seller?.close()]);
});

const signedOutScreens = [
  '/login',
  '/signup',
  '/lockdrop/login',
  '/lockdrop/signup',
  '/forgot-password',
  '/reset-password?token=abc',
  '/email-verified',
  '/email-verified?error=token_expired',
];

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
])('account screens at %s width', (_name, viewport) => {
  it.each(signedOutScreens)('%s has one h1 and no serious axe violations', async (path) => {
    const page = await visitor.open(path, viewport);
    // The route's code arrives after the prerendered shell: count once the screen is there.
    await page.locator('h1').first().waitFor();
    expect(await page.locator('h1').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await page.close();
  });

  it.each(['/settings', '/onboarding'])(
    '%s (signed in) has one h1 and no serious axe violations',
    async (path) => {
      const page = await seller.open(path, viewport);
      await page.locator('h1').waitFor();
      expect(await page.locator('h1').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.close();
    },
  );

  it('the open avatar menu has no serious axe violations and closes with Escape', async () => {
    const page = await seller.open('/pricing', viewport);
    const button = page.getByRole('button', { name: 'Open account menu' });
    await button.click();
    await page.getByRole('menu', { name: 'My Account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });
});
