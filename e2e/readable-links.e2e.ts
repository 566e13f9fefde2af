import { randomBytes } from 'node:crypto';
import { productPath, shortIdOf } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, type TestAccount } from './support/accounts';
import { baseUrl, launchBrowser, MOBILE, type Browser } from './support/browser';
import { publishProduct } from './support/products';

/*
 * Issue 29: readable product links (/p/<slug>-<shortId>), honest HTTP statuses, and the
 * product page's copy, as a buyer's browser meets them.
 */
let seller: Browser;
let buyer: Browser;
let account: TestAccount;
const title = `Café Crème Recipes ${Date.now().toString(36)}`;
let productId = '';

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  account = await signUpSeller(seller.context);
  productId = await publishProduct(seller.context, { bytes: randomBytes(4096), title });
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

describe('readable product links', () => {
  it('opens the product at its slug address, carries the canonical tag, and the old address still works', async () => {
    const path = productPath({ id: productId, title });
    expect(path).toMatch(/^\/p\/cafe-creme-recipes-[a-z0-9]+-[0-9A-Za-z]{11}$/);
    const page = await buyer.open(path, MOBILE);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('button', { name: 'Buy now for $7.00' }).waitFor();
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${baseUrl}${path}`,
    );
    // The seller's name (their full name: no store name yet) under the title.
    await page.getByText(`by ${account.fullName}`).waitFor();

    const old = await buyer.open(`/product/${productId}`);
    await old.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await old.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${baseUrl}${path}`,
    );
    await Promise.all([page.close(), old.close()]);
  });

  it('takes an old slug to the renamed product’s current address', async () => {
    const oldPath = productPath({ id: productId, title });
    const renamed = `${title} Volume Two`;
    const patched = await seller.context.request.patch(`${baseUrl}/api/products/${productId}`, {
      data: { title: renamed },
    });
    expect(patched.ok()).toBe(true);
    const page = await buyer.context.newPage();
    const response = await page.goto(`${oldPath}?code=WELCOME`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(productPath({ id: productId, title: renamed }));
    expect(new URL(page.url()).search).toBe('?code=WELCOME');
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    await page.close();
  });
});

describe('honest statuses', () => {
  it('answers 404 with the not-found screens for an unknown page, an unknown product and a draft', async () => {
    const page = await buyer.context.newPage();
    const unknownPage = await page.goto('/no-such-page', { waitUntil: 'networkidle' });
    expect(unknownPage?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();

    const draft = await seller.context.request.post(`${baseUrl}/api/products/${productId}/status`, {
      data: { status: 'draft' },
    });
    expect(draft.ok()).toBe(true);
    for (const path of [
      `/product/${productId}`,
      `/p/anything-${shortIdOf(productId)}`,
      '/product/0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10',
    ]) {
      const response = await page.goto(path, { waitUntil: 'networkidle' });
      expect(response?.status(), path).toBe(404);
      await page.getByRole('heading', { name: 'Product not found.' }).waitFor();
    }
    await page.close();
  });

  it('answers /favicon.ico, and an anonymous page asks for no session it cannot have', async () => {
    const icon = await fetch(`${baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');

    // A visitor who never signed in: the pricing page, the home page and a product page.
    // (The test before left the product a draft: published again, it has a page to visit.)
    const published = await seller.context.request.post(
      `${baseUrl}/api/products/${productId}/status`,
      { data: { status: 'published' } },
    );
    expect(published.ok()).toBe(true);
    const visitor = await launchBrowser();
    try {
      for (const path of ['/pricing', '/', `/product/${productId}`]) {
        const page = await visitor.context.newPage();
        const failures: string[] = [];
        page.on('response', (response) => {
          if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
        });
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        const sessionCheck = page.waitForResponse((response) =>
          response.url().endsWith('/api/auth/session'),
        );
        await page.goto(path, { waitUntil: 'networkidle' });
        const session = await sessionCheck;
        expect(session.status(), path).toBe(200);
        expect(await session.json()).toEqual({ user: null });
        expect(failures, path).toEqual([]);
        expect(errors, path).toEqual([]);
        await page.close();
      }
    } finally {
      await visitor.close();
    }
  });
});
