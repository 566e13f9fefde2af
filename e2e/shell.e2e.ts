import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { DESKTOP, MOBILE, launchBrowser, type Browser } from './support/browser';
import { landingHeading, publicPages } from './support/public-pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const h1Texts = (page: Awaited<ReturnType<Browser['open']>>) => page.locator('h1').allInnerTexts();

describe('landing page', () => {
  it('renders its heading and the calls to action of a signed-out visitor', async () => {
    const page = await browser.open('/');
    expect(await h1Texts(page)).toEqual([landingHeading]);
    await expect
      .poll(() =>
        page.getByRole('link', { name: 'Get Started for Free' }).first().getAttribute('href'),
      )
      .toBe('/signup');
    expect(await page.getByRole('link', { name: 'See How It Works' }).getAttribute('href')).toBe(
      '/features',
    );
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Sign up' }).isVisible()).toBe(true);
    await page.close();
  });

  it('has the sections the footer anchors point to', async () => {
    const page = await browser.open('/pricing');
    for (const [label, id] of [
      ['Security', 'security'],
      ['Features', 'features'],
      ['Docs', 'docs'],
      ['Status', 'status'],
    ] as const) {
      await page.getByRole('contentinfo').getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**/#${id}`);
      await expect
        .poll(() =>
          page.locator(`#${id}`).evaluate((el) => {
            const { top, bottom } = el.getBoundingClientRect();
            return top < window.innerHeight && bottom > 0;
          }),
        )
        .toBe(true);
      expect(await page.locator(`#${id} h2`).count()).toBeGreaterThan(0);
    }
    await page.close();
  });
});

describe('unknown route', () => {
  it("shows 'Oops! Page not found' with a working link home", async () => {
    const page = await browser.open('/no/such/page');
    expect(await h1Texts(page)).toEqual(['Oops! Page not found']);
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => h1Texts(page)).toEqual([landingHeading]);
    await page.close();
  });
});

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
])('every public route at %s width', (_name, viewport) => {
  it.each(publicPages.map((p) => [p.path, p.heading]))(
    '%s renders its single h1',
    async (path, heading) => {
      const page = await browser.open(path, viewport);
      expect(await h1Texts(page)).toEqual([heading]);
      expect(await page.locator('main').count()).toBe(1);
      expect(await page.locator('header').first().isVisible()).toBe(true);
      expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
      // Nothing may be wider than the screen (no sideways scrolling on phones).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.close();
    },
  );
});

describe('mobile menu', () => {
  it('opens, and closes when a link is chosen', async () => {
    const page = await browser.open('/', MOBILE);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Pricing' })
        .isVisible(),
    ).toBe(false);
    await toggle.click();
    const menu = page.locator('#mobile-menu');
    expect(await menu.isVisible()).toBe(true);
    expect(
      await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL('**/pricing');
    expect(await menu.count()).toBe(0);
    expect(
      await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded'),
    ).toBe('false');
    // The pricing page's code may still be loading when the URL changes.
    await expect.poll(() => h1Texts(page)).toEqual(['Simple pricing that grows with you']);
    await page.close();
  });

  it('closes again with its toggle button', async () => {
    const page = await browser.open('/features', MOBILE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    expect(await page.locator('#mobile-menu').count()).toBe(0);
    await page.close();
  });

  it('is not shown at desktop width, where the links are inline', async () => {
    const page = await browser.open('/', DESKTOP);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Pricing' })
        .isVisible(),
    ).toBe(true);
    await page.close();
  });
});

describe('hydration', () => {
  it.each(publicPages.map((p) => p.path))(
    '%s hydrates its prerendered HTML without errors',
    async (path) => {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        // A signed-out session check answers 401: the browser logs it, the app expects it.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          errors.push(message.text());
      });
      await page.goto(path, { waitUntil: 'networkidle' });
      // Hydrated: client-side navigation works without a full page load.
      await page.evaluate(
        () => ((window as unknown as { hydrationMarker: boolean }).hydrationMarker = true),
      );
      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
      await page.waitForURL('**/terms');
      expect(
        await page.evaluate(
          () => (window as unknown as { hydrationMarker?: boolean }).hydrationMarker,
        ),
      ).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});

describe('client-side routes', () => {
  it('redirects /products/new to /create-product, which asks a signed-out visitor to log in', async () => {
    const page = await browser.open('/products/new');
    await page.waitForURL(
      (url) =>
        url.pathname === '/login' && url.searchParams.get('redirectTo') === '/create-product',
    );
    await page.close();
  });
});

describe('signed-in visitor', () => {
  // A real account in its own browser, so the other journeys here stay signed out.
  let signedIn: Browser;
  beforeAll(async () => {
    signedIn = await launchBrowser();
    await signUpSeller(signedIn.context);
  });
  afterAll(async () => {
    await signedIn?.close();
  });

  // Repeated: the session can answer before, during or after hydration, and each must end right.
  it.each([1, 2, 3])(
    'sees Dashboard, My Purchases and the account menu, and the hero leads to the dashboard (load %i)',
    async () => {
      const page = await signedIn.open('/');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
      expect(await nav.getByRole('link', { name: 'My Purchases' }).getAttribute('href')).toBe(
        '/purchases',
      );
      expect(await nav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
      await nav.getByRole('button', { name: 'Open account menu' }).waitFor();
      await expect
        .poll(() =>
          page.getByRole('link', { name: 'Get Started for Free' }).first().getAttribute('href'),
        )
        .toBe('/dashboard');
      // Signed in, a plan card pays for the plan itself instead of leading to sign-up.
      await page
        .locator('article[data-plan="pro"]')
        .getByRole('button', { name: 'Choose Pro' })
        .waitFor();
      expect(
        await page
          .locator('article[data-plan="pro"]')
          .getByRole('link', { name: 'Choose Pro' })
          .count(),
      ).toBe(0);
      await page.close();
    },
  );
});
