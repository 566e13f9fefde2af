import { randomBytes } from 'node:crypto';
import { renderEmail } from '@lockdrop/mailer';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';

// Issue 29 on a 375 × 667 phone, measured with bounding boxes.
const PHONE = { width: 375, height: 667 };

let seller: Browser;
let buyer: Browser;
const longTitle = `A very long product title for a brand kit with every template ${Date.now().toString(36)}`;
let productId = '';

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  await signUpSeller(seller.context);
  productId = await publishProduct(seller.context, {
    bytes: Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(2048)]),
    title: longTitle,
    description: 'Logos, colours and type for a whole year of posts.\n'.repeat(6),
  });
  // A second file, so the buyer gets 'Download all (ZIP)'.
  const upload = await seller.context.request.post(`${baseUrl}/api/uploads`, {
    multipart: {
      file: { name: 'extra.zip', mimeType: 'application/zip', buffer: randomBytes(1024) },
    },
  });
  const { id: extra } = (await upload.json()) as { id: string };
  const product = (await (
    await seller.context.request.get(`${baseUrl}/api/products/${productId}`)
  ).json()) as { files: { fileId: string }[] };
  const patched = await seller.context.request.patch(`${baseUrl}/api/products/${productId}`, {
    data: { files: [...product.files.map((f) => ({ fileId: f.fileId })), { fileId: extra }] },
  });
  expect(patched.ok()).toBe(true);
}, 60_000);
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

async function box(locator: Locator) {
  await locator.waitFor();
  const found = await locator.boundingBox();
  if (!found) throw new Error('not rendered');
  return found;
}

async function expectInsideViewport(page: Page, locator: Locator) {
  const { x, width } = await box(locator);
  expect(x).toBeGreaterThanOrEqual(0);
  expect(x + width).toBeLessThanOrEqual(PHONE.width);
  // Nothing scrolls sideways either.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
}

describe('a seller and a buyer on a 375 px phone', () => {
  it('the product page shows Buy within the first screen (375 × 667)', async () => {
    const page = await buyer.open(`/product/${productId}`, PHONE);
    const buy = page.getByRole('button', { name: /^Buy now for / });
    const { y, height } = await box(buy);
    expect(y + height).toBeLessThanOrEqual(PHONE.height);
    await expectInsideViewport(page, buy);
    await page.close();
  });

  it('the sandbox payment page is styled like the site and its e-mail stays on screen', async () => {
    const page = await buyer.open(`/product/${productId}`, PHONE);
    const email = `a-rather-long-buyer-address-${Date.now().toString(36)}@example-company-domain.com`;
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: /^Buy now for / }).click();
    await page.waitForURL('**/sandbox/checkout/**');
    await expectInsideViewport(page, page.getByTestId('email'));
    expect(await page.getByTestId('email').innerText()).toBe(email);
    const pay = page.getByRole('button', { name: /^Pay / });
    // The site's primary button: indigo-600 (#4f46e5), white text, rounded, the system font.
    const look = await pay.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        background: style.backgroundColor,
        color: style.color,
        radius: style.borderRadius,
        font: getComputedStyle(document.body).fontFamily,
      };
    });
    expect(look).toEqual({
      background: 'rgb(79, 70, 229)',
      color: 'rgb(255, 255, 255)',
      radius: '8px',
      font: expect.stringContaining('system-ui'),
    });
    await expectInsideViewport(page, pay);

    // Paid, the buyer's 'Download all (ZIP)' fits on one line.
    await pay.click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    const zip = page.getByRole('button', { name: /Download all \(ZIP\)/ });
    const zipBox = await box(zip);
    const lineHeight = await zip.evaluate((element) =>
      parseFloat(getComputedStyle(element).lineHeight),
    );
    const padding = await zip.evaluate((element) => {
      const style = getComputedStyle(element);
      return parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    });
    expect(zipBox.height).toBeLessThan(padding + lineHeight * 1.5);
    await expectInsideViewport(page, zip);
    await page.close();
  }, 60_000);

  it('the analytics product picker stays inside its card', async () => {
    const page = await seller.open('/dashboard/analytics', PHONE);
    const picker = page.getByTestId('daily-product');
    const card = page.getByRole('region', { name: 'Daily figures' });
    const pickerBox = await box(picker);
    const cardBox = await box(card);
    expect(pickerBox.x).toBeGreaterThanOrEqual(cardBox.x);
    expect(pickerBox.x + pickerBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    await expectInsideViewport(page, picker);
    await page.close();
  });

  it('onboarding shows every step label', async () => {
    const page = await seller.open('/onboarding', PHONE);
    const steps = page.getByRole('list', { name: 'Onboarding progress' });
    for (const label of ['Your role', 'Payouts', 'First product']) {
      const text = steps.getByText(label, { exact: true });
      expect(await text.isVisible()).toBe(true);
      const { width, height } = await box(text);
      expect(width).toBeGreaterThan(10);
      expect(height).toBeGreaterThan(8);
      await expectInsideViewport(page, text);
    }
    await page.close();
  });

  it('an e-mail fits the phone: no sideways scroll, long addresses and links wrap', async () => {
    const longAddress = `a-rather-long-buyer-address-${Date.now().toString(36)}@example-company-domain.com`;
    for (const brand of [undefined, { name: 'Dawn Recordings', accentColour: '#0f766e' }]) {
      const { html } = renderEmail({
        subject: `You made a sale: ${longTitle}`,
        heading: 'You made a sale',
        paragraphs: [`${longAddress} bought "${longTitle}" for ₦2,500.`],
        action: {
          label: 'See your sales',
          url: `${baseUrl}/receipt/${randomBytes(32).toString('hex')}`,
        },
        footnote: 'You received this e-mail because you sell on Lockdrop.',
        ...(brand ? { brand: { ...brand, logoUrl: null } } : {}),
      });
      const page = await buyer.context.newPage();
      await page.setViewportSize(PHONE);
      await page.setContent(html);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      const heading = await box(page.getByRole('heading', { name: 'You made a sale' }));
      expect(heading.x + heading.width).toBeLessThanOrEqual(PHONE.width);
      await page.close();
    }
  });
});
