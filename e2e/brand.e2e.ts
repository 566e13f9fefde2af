import { deflateSync, crc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpSeller, waitForMail } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';
import { upgradeToPro } from './support/plans';

/**
 * A Pro seller's own brand (issue 28): set in /settings, shown to a buyer on the product page,
 * the sandbox provider's page, the payment result and the receipt, with Lockdrop reduced to a
 * "Sold with Lockdrop" line.
 */
let seller: Browser;
let buyer: Browser;

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

/** A 600 × 300 teal PNG, built by hand. */
function logoPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const [width, height] = [600, 300];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const brandSection = (page: Page) => page.getByRole('region', { name: 'Brand' });
const TEAL = 'rgb(15, 118, 110)';

describe("a Pro seller's brand", () => {
  it('is set in settings and shown on the product page, checkout, payment result and receipt', async () => {
    await signUpSeller(seller.context);
    const page = await seller.open('/settings');
    // Below Pro the section says which plan unlocks it.
    expect(await brandSection(page).getByTestId('brand-locked').innerText()).toContain('Pro');
    await page.goto('/dashboard');
    await upgradeToPro(page);

    const section = brandSection(page);
    const handle = `dawn-${randomBytes(4).toString('hex')}`;
    await section.getByLabel('Store name').fill('Dawn Recordings');
    await section.getByLabel('Store handle').fill(handle);
    await section.getByLabel('Logo').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: logoPng(),
    });
    await section.getByRole('img', { name: 'Your logo' }).waitFor();
    await section.getByLabel('Accent colour').fill('#ffcc00');
    await section.getByRole('button', { name: 'Save brand' }).click();
    await section.getByText(/contrast ratio of 1\.51:1 against white/).waitFor();
    await section.getByLabel('Accent colour').fill('#0f766e');
    await section.getByRole('button', { name: 'Save brand' }).click();
    await expectToast(page, 'Brand saved');

    const title = `Dawn chorus ${Date.now().toString(36)}`;
    const productId = await publishProduct(seller.context, {
      bytes: randomBytes(2048),
      title,
    });

    const product = await buyer.open(`/product/${productId}`);
    const header = product.getByTestId('brand-header');
    await header.getByText('Dawn Recordings').waitFor();
    expect(await product.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await product.getByTestId('sold-with-lockdrop').innerText()).toBe('Sold with Lockdrop');
    expect(await header.locator('img').getAttribute('src')).toMatch(
      /^\/api\/brand-logos\/.+\.png$/,
    );
    const buy = product.getByRole('button', { name: 'Buy now for $7.00' });
    expect(await buy.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(TEAL);

    const buyerEmail = newAccount('buyer').email;
    await product.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await buy.click();
    await product.waitForURL('**/sandbox/checkout/**');
    expect(await product.getByTestId('store-brand').innerText()).toContain('Dawn Recordings');
    expect(await product.title()).toBe('Sandbox checkout · Dawn Recordings');
    await product.getByRole('button', { name: 'Pay $7.00' }).click();
    await product.waitForURL('**/payment/success?**');
    await product
      .getByRole('heading', { name: 'Payment Successful!' })
      .waitFor({ timeout: 20_000 });
    await product.getByTestId('brand-header').getByText('Dawn Recordings').waitFor();
    expect(await product.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await expect.poll(() => product.title()).toBe('Payment — Dawn Recordings');

    const receipt = await waitForMail(buyer.context, { to: buyerEmail, subject: title });
    expect(receipt.text).toContain('a purchase from Dawn Recordings');
    expect(receipt.text).toContain('Dawn Recordings · Sold with Lockdrop');

    // The public store page lists the product under the same brand.
    const store = await buyer.open(`/s/${handle}`);
    await store.getByRole('heading', { name: 'Dawn Recordings' }).waitFor();
    expect(await store.getByRole('link', { name: title }).count()).toBe(1);
  }, 120_000);
});
