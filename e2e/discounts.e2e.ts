import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, signUpSeller, waitForMail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { payInSandbox } from './support/checkout';
import { shoot } from './support/screenshots';
import { publishFromMyProducts, publishProduct } from './support/products';
import { expectToast } from './support/toasts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A code nobody else in the run has: letters, digits and '-', as a seller would type it. */
const uniqueCode = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex').toUpperCase()}`;
const buyerEmail = (name: string) => `${name}-${Date.now().toString(36)}@example.com`;

/** The cells (after the code) of a code's row on /dashboard/discounts. */
const COLUMN = { discount: 0, status: 1, uses: 2, revenue: 3 } as const;
const codeRow = (page: Page, code: string) => page.locator(`tr[data-discount-code="${code}"]`);
const cellText = async (row: Locator, column: keyof typeof COLUMN) =>
  (await row.locator('td').nth(COLUMN[column]).innerText()).trim();
/** 'uses' ("1", "1 of 10") or 'reserved' ("0 reserved") in a row's Uses cell. */
const figure = async (row: Locator, name: 'uses' | 'reserved') =>
  (await row.locator(`[data-figure="${name}"]`).innerText()).trim();

/** The figure of a row of the success page's purchase details, e.g. 'Amount'. */
const detail = (page: Page, term: string) =>
  page.locator('dl > div', { has: page.locator('dt', { hasText: term }) }).locator('dd');

/** Creates a percentage code on /dashboard/discounts through its form. */
async function createPercentCode(
  page: Page,
  { code, percent, productTitle }: { code: string; percent: number; productTitle?: string },
) {
  const create = page
    .getByRole('button', { name: 'Create your first code' })
    .or(page.getByRole('button', { name: 'New code' }));
  await create.click();
  const form = page.getByRole('region', { name: 'New discount code' });
  await form.getByLabel('Code', { exact: true }).fill(code);
  await form.getByText('Percentage', { exact: true }).click();
  await form.getByLabel('Percentage off').fill(String(percent));
  if (productTitle) {
    await form.getByText('Chosen products', { exact: true }).click();
    await form.getByLabel(productTitle).check();
  }
  expect(await seriousViolations(page)).toEqual([]);
  await shoot(page, `discount-form-${percent}`, { mobile: false });
  await form.getByRole('button', { name: 'Create code' }).click();
  await page.getByText(`Discount code ${code} created`).waitFor();
  await codeRow(page, code).waitFor();
}

let seller: Browser;
let buyer: Browser;
let freeBuyer: Browser;
let stranger: Browser;
const file = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(32 * 1024)]);
const title = `Launch presets ${Date.now().toString(36)}`;
let productId = '';

beforeAll(async () => {
  [seller, buyer, freeBuyer, stranger] = await Promise.all([
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
  ]);
  await signUpSeller(seller.context);
  productId = await publishProduct(seller.context, { bytes: file, title, price: '10.00' });
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), freeBuyer?.close(), stranger?.close()]);
});

describe('a discount code', () => {
  const code = uniqueCode('LAUNCH20');

  it('is created by the seller on /dashboard/discounts', async () => {
    const page = await seller.open('/dashboard');
    await page
      .getByRole('navigation', { name: 'Seller' })
      .getByRole('link', { name: 'Discounts' })
      .click();
    await page.getByRole('heading', { name: 'Discounts', level: 1 }).waitFor();
    await page.getByText('No discount codes yet').waitFor();
    await createPercentCode(page, { code, percent: 20 });

    const row = codeRow(page, code);
    expect(await cellText(row, 'discount')).toBe('20% off');
    expect(await cellText(row, 'status')).toBe('Active');
    expect(await figure(row, 'uses')).toBe('0');
    expect(await row.getByRole('switch', { name: `${code} active` }).isChecked()).toBe(true);
    // Without the toast, which axe catches mid-animation.
    await page.reload({ waitUntil: 'networkidle' });
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'discounts');
    await page.close();
  });

  it('takes 20% off on the product page opened with ?code=, and checkout charges that', async () => {
    const page = await buyer.open(`/product/${productId}?code=${code}`);
    await page.getByRole('button', { name: 'Buy now for $8.00' }).waitFor();
    expect(await page.getByLabel('Discount code').inputValue()).toBe(code);
    expect(await page.getByText('20% off').isVisible()).toBe(true);
    expect(await page.locator('s', { hasText: '$10.00' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'product-with-code');

    const email = buyerEmail('discount-buyer');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Buy now for $8.00' }).click();
    await payInSandbox(page, '$8.00');
    expect(await detail(page, 'Amount').innerText()).toBe('$8.00');
    expect(await detail(page, 'Discount').innerText()).toBe(`${code}, $2.00 off`);
    expect(await detail(page, 'Product').innerText()).toBe(title);
    await page.close();

    const receipt = await waitForMail(buyer.context, {
      to: email,
      subject: `Your receipt for ${title}`,
    });
    expect(receipt.text).toContain('Amount paid: $8.00');
  }, 60_000);

  it('can be removed on the product page, which restores the price', async () => {
    const page = await stranger.open(`/product/${productId}?code=${code}`);
    await page.getByRole('button', { name: 'Buy now for $8.00' }).waitFor();
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Buy now for $10.00' }).waitFor();
    expect(await page.getByLabel('Discount code').inputValue()).toBe('');
    await page.close();
  });

  it('shows the seller 1 use and its revenue', async () => {
    const page = await seller.open('/dashboard/discounts');
    const row = codeRow(page, code);
    await expect
      .poll(
        async () => {
          await page.reload({ waitUntil: 'networkidle' });
          return figure(row, 'uses');
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe('1');
    expect(await cellText(row, 'revenue')).toContain('$8.00');
    expect(await figure(row, 'reserved')).toBe('0 reserved');
    await page.close();
  }, 40_000);

  it('once used cannot be deleted; the seller turns it off and buyers are told', async () => {
    const page = await seller.open('/dashboard/discounts');
    const row = codeRow(page, code);
    await row.getByRole('button', { name: `Delete ${code}` }).click();
    await row.getByRole('button', { name: 'Confirm delete' }).click();
    await expectToast(page, 'This code has been used; turn it off instead');
    await row.getByRole('switch', { name: `${code} active` }).click();
    await page.getByText(`Discount code ${code} saved`).waitFor();
    await expect.poll(() => cellText(row, 'status')).toBe('Inactive');
    expect(await row.getByRole('switch', { name: `${code} active` }).isChecked()).toBe(false);
    await page.close();

    const product = await stranger.open(`/product/${productId}?code=${code}`);
    await product.getByRole('alert').filter({ hasText: 'no longer active' }).waitFor();
    expect(await product.getByRole('button', { name: 'Buy now for $10.00' }).isVisible()).toBe(
      true,
    );
    await product.close();
  });
});

describe('an unknown code', () => {
  it('is refused under the field in the words payments gives, and the price stays', async () => {
    const unknown = uniqueCode('NOPE');
    const answer = await stranger.context.request.post(`${baseUrl}/api/checkout/quote`, {
      data: { productId, discountCode: unknown },
    });
    expect(answer.status()).toBe(400);
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('discount_unknown');

    const page = await stranger.open(`/product/${productId}`);
    await page.getByLabel('Discount code').fill(unknown);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').filter({ hasText: error.message }).waitFor();
    expect(await page.getByLabel('Discount code').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Buy now for $10.00' }).isVisible()).toBe(true);
    await shoot(page, 'product-unknown-code');
    await page.close();
  });
});

describe('a 100% code', () => {
  const code = uniqueCode('FREE');

  it('for this product gives the file away without a payment page', async () => {
    const sellerPage = await seller.open('/dashboard/discounts');
    await createPercentCode(sellerPage, { code, percent: 100, productTitle: title });
    expect(await cellText(codeRow(sellerPage, code), 'discount')).toBe('100% off');
    await sellerPage.close();

    const page = await freeBuyer.open(`/product/${productId}?code=${code}`);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    const email = buyerEmail('free-buyer');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Get it for free' }).click();
    // A new address confirms it reads its mail first (issue 30; free-claim-confirm.e2e.ts).
    await page.getByText('Check your e-mail to confirm').waitFor();
    const confirmation = await waitForMail(page, { to: email, subject: 'Confirm your e-mail' });
    const link = linkIn(confirmation, '/api/checkout/claims/confirm');
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await page.waitForURL('**/receipt/**');
    await page.getByRole('heading', { name: 'Your purchase' }).waitFor({ timeout: 20_000 });
    expect(visited.filter((url) => url.includes('/sandbox/'))).toEqual([]);
    const receipt = await waitForMail(page, { to: email, subject: `Your receipt for ${title}` });
    expect(receipt.text).toContain('Amount paid: nothing, this one is free.');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: /Download/ })
        .first()
        .click(),
    ]);
    expect(sha256(await readFile(await download.path()))).toBe(sha256(file));
    await shoot(page, 'free-claim-success');
    await page.close();
  }, 60_000);
});

describe('pay what you want', () => {
  const pwywTitle = `Name-your-price zine ${Date.now().toString(36)}`;
  let pwywId = '';

  it('the seller sets a minimum of 2 and a suggested price of 5 on /create-product', async () => {
    const page = await seller.open('/create-product');
    await page.getByLabel('Title').fill(pwywTitle);
    await page.getByLabel('Let buyers pay what they want').check();
    await page.getByLabel('Minimum price', { exact: true }).fill('2');
    await page.getByLabel('Suggested price').fill('5');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'zine.zip', mimeType: 'application/zip', buffer: file });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    await shoot(page, 'create-product-pwyw');
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.getByText('Product created successfully!').waitFor();
    await page.waitForURL('**/dashboard');
    // The seller's lists word it as the product page does, not as a fixed $5.00.
    const recent = page.getByRole('region', { name: 'Recent Products' });
    await recent.getByText(pwywTitle).waitFor();
    expect(
      await recent
        .getByRole('listitem')
        .filter({ hasText: pwywTitle })
        .getByText('$2.00+ (pay what you want)')
        .isVisible(),
    ).toBe(true);

    await page.goto('/my-products', { waitUntil: 'networkidle' });
    const card = page.getByRole('article').filter({ hasText: pwywTitle });
    await card.getByText('$2.00+ (pay what you want)').waitFor();
    expect(await card.getByText('Suggested price $5.00').isVisible()).toBe(true);
    pwywId = await publishFromMyProducts(page, card, pwywTitle);
    await page.close();
  }, 60_000);

  it('refuses less than the minimum before checkout, then pays 7 in the sandbox', async () => {
    const page = await buyer.open(`/product/${pwywId}`);
    await page.getByText('$2.00+ (pay what you want)').waitFor();
    expect(await page.getByText('Minimum $2.00').isVisible()).toBe(true);
    expect(await page.getByLabel('Discount code').count()).toBe(0);
    const amount = page.getByLabel('Name your price');
    expect(await amount.inputValue()).toBe('5.00');
    expect(await page.getByRole('button', { name: 'Buy now for $5.00' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    let checkouts = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/checkout') checkouts += 1;
    });
    await page.getByLabel('E-mail', { exact: true }).fill(buyerEmail('pwyw-buyer'));
    await amount.fill('1');
    await page.getByRole('button', { name: 'Buy now for $1.00' }).click();
    await page.getByRole('alert').filter({ hasText: 'The minimum price is $2.00' }).waitFor();
    expect(checkouts).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/product/${pwywId}`);
    await shoot(page, 'product-pwyw-below-minimum');

    await amount.fill('7');
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await payInSandbox(page, '$7.00');
    expect(await detail(page, 'Amount').innerText()).toBe('$7.00');
    await page.close();
  }, 60_000);
});
