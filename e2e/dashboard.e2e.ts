import { randomBytes } from 'node:crypto';
import { formatMoney } from '@lockdrop/money';
import { earningsBreakdown, planById } from '@lockdrop/plans';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, type TestAccount } from './support/accounts';
import { baseUrl, launchBrowser, MOBILE, type Browser } from './support/browser';
import { shoot } from './support/screenshots';
import { publishProduct as publishSmallProduct } from './support/products';
import { PROCESSOR_FEE_BPS } from './support/fees';

const PRICE = '7.00';
const PRICE_MINOR = 700;

let seller: Browser;
let otherSeller: Browser;
let visitor: Browser;
let account: TestAccount;
let otherAccount: TestAccount;
const title = `Beat pack ${Date.now().toString(36)}`;

beforeAll(async () => {
  [seller, otherSeller, visitor] = await Promise.all([
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
  ]);
  [account, otherAccount] = await Promise.all([
    signUpSeller(seller.context),
    signUpSeller(otherSeller.context),
  ]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), otherSeller?.close(), visitor?.close()]);
});

const statValue = (page: Page, name: string) =>
  page.getByRole('article', { name }).locator('[data-stat-value]').innerText();

async function openDashboard(browser: Browser, path = '/dashboard'): Promise<Page> {
  const page = await browser.open(path);
  await page.getByRole('heading', { name: /^Welcome( back)?,/ }).waitFor();
  await page.getByRole('article', { name: 'Revenue' }).locator('[data-stat-value]').waitFor();
  return page;
}

/** A published product with a small file, made through the API as its seller would. */
const publishProduct = (context: BrowserContext): Promise<string> =>
  publishSmallProduct(context, {
    bytes: Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(2048)]),
    title,
    price: PRICE,
    fileName: 'beats.zip',
    description: 'Eight loops.',
  });

/** Reloads until the test-sales note (events reach analytics a moment after the request) says it. */
async function waitForTestSales(page: Page): Promise<string> {
  const note = page.getByTestId('test-sales-note');
  let text = '';
  await expect
    .poll(
      async () => {
        await page.reload({ waitUntil: 'networkidle' });
        await page.getByRole('article', { name: 'Revenue' }).locator('[data-stat-value]').waitFor();
        text = (await note.count()) ? await note.innerText() : '';
        return text;
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .not.toBe('');
  return text;
}

/** A figure of the plan card ("Used this month", "Remaining"), as the seller reads it. */
function planFigure(page: Page, label: string): Promise<string> {
  return page
    .getByRole('region', { name: 'Current plan' })
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('dd')
    .innerText();
}

describe('seller dashboard', () => {
  it('shows a brand new seller their name, zeros and friendly empty states', async () => {
    const page = await openDashboard(seller);
    expect(
      await page.getByRole('heading', { name: `Welcome, ${account.fullName}` }).isVisible(),
    ).toBe(true);
    expect(await statValue(page, 'Revenue')).toBe(formatMoney(0, 'USD'));
    expect(await statValue(page, 'Content views')).toBe('0');
    expect(await statValue(page, 'Deliveries')).toBe('0');
    expect(await statValue(page, 'Unlock rate')).toBe('—');
    await page.getByText('No products yet').waitFor();
    await page.getByText('No sales yet').waitFor();
    // Upgrading pays for Pro right from the card (subscriptions.e2e.ts follows it to the end).
    expect(
      await page
        .getByRole('region', { name: 'Current plan' })
        .getByRole('button', { name: 'Upgrade to Pro' })
        .isEnabled(),
    ).toBe(true);
    await expect.poll(() => planFigure(page, 'Used this month')).toBe('0');
    expect(await planFigure(page, 'Remaining')).toBe(String(planById('free').uploadsPerMonth));
    expect(
      await page
        .getByRole('region', { name: 'Quick actions' })
        .getByRole('link', { name: /Create product/ })
        .getAttribute('href'),
    ).toBe('/create-product');

    const menu = page.getByRole('navigation', { name: 'Seller' });
    expect(await menu.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.getByTestId('seller-identity').innerText()).toContain(account.email);

    await menu.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    expect(await menu.getByRole('link', { name: 'Payments' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByText('No sales yet').waitFor();
    await menu.getByRole('link', { name: 'Analytics' }).click();
    await page.getByText('No products to measure yet').waitFor();
    await menu.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByText('Nothing delivered yet').waitFor();
    await page.close();
  });

  it('after a view and a sandbox purchase, shows it as a test sale (not revenue), the earnings marked Test and the view', async () => {
    const productId = await publishProduct(seller.context);
    // A signed-out visitor reads the product, as its page does.
    const viewed = await visitor.context.request.get(`${baseUrl}/api/products/${productId}`);
    expect(viewed.ok()).toBe(true);
    const checkout = await visitor.context.request.post(`${baseUrl}/api/checkout`, {
      data: { productId, buyerEmail: `buyer-${Date.now()}@example.com` },
    });
    expect(checkout.ok()).toBe(true);
    const { link } = (await checkout.json()) as { link: string };
    const payPage = await visitor.context.newPage();
    await payPage.goto(link);
    await payPage.getByRole('button', { name: `Pay ${formatMoney(PRICE_MINOR, 'USD')}` }).click();
    await payPage.waitForURL('**/payment/success?**');
    await payPage.close();

    const split = earningsBreakdown(planById('free'), PRICE_MINOR, PROCESSOR_FEE_BPS);
    const page = await openDashboard(seller);
    // The e2e stack takes sandbox payments: no real money moved, so it is no revenue (issue 29.8).
    expect(await waitForTestSales(page)).toContain(
      `1 test sale (${formatMoney(PRICE_MINOR, 'USD')})`,
    );
    expect(await statValue(page, 'Revenue')).toBe(formatMoney(0, 'USD'));
    expect(await statValue(page, 'Deliveries')).toBe('0');
    expect(Number(await statValue(page, 'Content views'))).toBeGreaterThanOrEqual(1);
    await page.getByRole('region', { name: 'Recent Products' }).getByText(title).waitFor();
    await page.getByRole('region', { name: 'Recent Sales' }).getByText(title).waitFor();
    // One upload went into the product.
    await expect.poll(() => planFigure(page, 'Used this month')).toBe('1');
    expect(await planFigure(page, 'Remaining')).toBe(String(planById('free').uploadsPerMonth! - 1));
    await shoot(page, 'dashboard', { mobile: false });

    await page
      .getByRole('navigation', { name: 'Seller' })
      .getByRole('link', { name: 'Payments' })
      .click();
    const row = page.locator('tr', { hasText: title });
    await row.waitFor();
    await shoot(page, 'dashboard-payments', { mobile: false });
    expect(await row.getByText('Test', { exact: true }).isVisible()).toBe(true);
    await page.getByTestId('test-mode-balances').waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells).toEqual(
      expect.arrayContaining([
        formatMoney(PRICE_MINOR, 'USD'),
        // Both fees share one cell, so the table fits beside the side menu at 1280 px.
        `Platform ${formatMoney(split.platformFeeMinor, 'USD')}\nProcessor ${formatMoney(split.processorFeeMinor, 'USD')}`,
        formatMoney(split.netMinor, 'USD'),
      ]),
    );

    await page
      .getByRole('navigation', { name: 'Seller' })
      .getByRole('link', { name: 'Analytics' })
      .click();
    // The payments table stays on screen until the analytics page has rendered: wait for the
    // analytics page before reading its row.
    await page.waitForURL('**/dashboard/analytics');
    await page.getByTestId('test-sales-note').waitFor();
    const analyticsRow = page.locator('tr', { hasText: title });
    await analyticsRow.waitFor();
    expect(await analyticsRow.innerText()).not.toContain(formatMoney(split.netMinor, 'USD'));
    await page.getByRole('img', { name: 'Views per day' }).waitFor();
    await shoot(page, 'dashboard-analytics', { mobile: false });
    await page.close();
  }, 90_000);

  it('shows another seller none of it', async () => {
    const page = await openDashboard(otherSeller);
    expect(
      await page.getByRole('heading', { name: `Welcome, ${otherAccount.fullName}` }).isVisible(),
    ).toBe(true);
    expect(await statValue(page, 'Revenue')).toBe(formatMoney(0, 'USD'));
    expect(await statValue(page, 'Content views')).toBe('0');
    expect(await statValue(page, 'Deliveries')).toBe('0');
    expect(await page.getByText(title).count()).toBe(0);
    await page.getByText('No sales yet').waitFor();
    await shoot(page, 'dashboard-empty', { mobile: false });
    const figures = await otherSeller.context.request.get(`${baseUrl}/api/analytics/products`);
    expect(await figures.json()).toEqual({ products: [] });
    await page.close();
  });

  it('refunds a sale after confirmation, and the dashboard counts the test sale refunded', async () => {
    const page = await seller.open('/dashboard/payments');
    const row = page.locator('tr', { hasText: title });
    await row.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm refund' }).click();
    await row.getByText(/Refunded|Refunding/).waitFor();
    const dashboard = await openDashboard(seller);
    await expect
      .poll(() => waitForTestSales(dashboard), { timeout: 30_000 })
      .toContain('1 refunded');
    expect(await statValue(dashboard, 'Revenue')).toBe(formatMoney(0, 'USD'));
    await Promise.all([page.close(), dashboard.close()]);
  }, 60_000);

  it('/lockdrop/dashboard is the same dashboard, and the side menu toggles on a phone', async () => {
    const page = await seller.open('/lockdrop/dashboard', MOBILE);
    await page.getByRole('heading', { name: `Welcome back, ${account.fullName}` }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Seller' });
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Seller menu' }).click();
    expect(await menu.isVisible()).toBe(true);
    await page.close();
  });

  it('Logout really signs out, and the dashboard then asks to log in', async () => {
    const page = await openDashboard(seller);
    await page.locator('#seller-menu').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/`);
    // Signed out: no user — 200 `{ user: null }` once no credential is left, 401 for a dead one.
    const session = await seller.context.request.get(`${baseUrl}/api/auth/session`);
    const signedOut =
      session.status() === 401 ||
      (session.status() === 200 && ((await session.json()) as { user: unknown }).user === null);
    expect(signedOut).toBe(true);
    await page.goto('/lockdrop/dashboard');
    await page.waitForURL('**/login**');
    await page.close();
  });
});
