import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pdfDocument } from '@lockdrop/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, signUpSeller, waitForMail } from './support/accounts';
import { seriousViolations } from './support/axe';
import { shoot } from './support/screenshots';
import { payInSandbox } from './support/checkout';
import { launchBrowser, type Browser } from './support/browser';
import { publishCreatedProduct } from './support/products';
import { expectToast } from './support/toasts';
import { zipEntries } from './support/zip';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type UploadFile = { name: string; mimeType: string; buffer: Buffer };

const filesSection = (page: Page) => page.getByRole('region', { name: 'Files' });

/** The edit screen's files, top to bottom, as its Remove buttons name them. */
const editOrder = (page: Page) =>
  filesSection(page)
    .getByRole('button', { name: /^Remove / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')!.slice(7)));

/** The buyer's files, top to bottom, as their Download buttons name them. */
const buyerOrder = (list: Locator) =>
  list
    .getByRole('button', { name: /^Download / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')!.slice(9)));

/** Adds a file on the edit screen: Add file, choose, Upload, and its row appears. */
async function addFile(page: Page, file: UploadFile) {
  await filesSection(page).getByRole('button', { name: 'Add file' }).click();
  await page.getByLabel('Choose a file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await filesSection(page)
    .getByRole('radio', { name: `Preview from this file: ${file.name}` })
    .waitFor();
}

/** Clicks `button` and reads what the browser saved. */
async function downloaded(page: Page, button: Locator): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return readFile(await download.path());
}

const noToasts = (page: Page) =>
  expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);

let seller: Browser;
let buyer: Browser;
let reader: Browser;
const notes = {
  name: 'field-notes.zip',
  mimeType: 'application/zip',
  buffer: Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(48 * 1024)]),
};
const bonus = {
  name: 'bonus-chapter.pdf',
  mimeType: 'application/pdf',
  buffer: pdfDocument('Bonus chapter: river crossings'),
};
const title = `Field kit ${Date.now().toString(36)}`;
const buyerEmail = `files-buyer-${Date.now().toString(36)}@example.com`;
let productId = '';
let successPath = '';

beforeAll(async () => {
  [seller, buyer, reader] = await Promise.all([launchBrowser(), launchBrowser(), launchBrowser()]);
  await signUpSeller(seller.context);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), reader?.close()]);
});

describe('several files per product', () => {
  it('the seller creates a one-file product on /create-product and publishes it', async () => {
    const page = await seller.open('/create-product');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Price').fill('9.00');
    await page.getByLabel('Choose a file').setInputFiles(notes);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByLabel('Uploaded', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create Product' }).click();
    productId = await publishCreatedProduct(page, title);
    await page.close();
  }, 60_000);

  it('a buyer pays in the sandbox and gets the one file, named with its size', async () => {
    const page = await buyer.open(`/product/${productId}`);
    await page.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await page.getByRole('button', { name: 'Buy now for $9.00' }).click();
    await payInSandbox(page, '$9.00');
    successPath = new URL(page.url()).pathname + new URL(page.url()).search;

    await page.getByText(notes.name, { exact: true }).waitFor();
    expect(await page.getByText(/^48(\.0)? KB$/).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /Download all/ }).count()).toBe(0);
    const copy = await downloaded(page, page.getByRole('button', { name: /Download File/ }));
    expect(sha256(copy)).toBe(sha256(notes.buffer));
    await page.close();
  }, 60_000);

  it('the seller adds a second file, ticks Tell my buyers, moves it to the top and saves', async () => {
    const page = await seller.open(`/my-products/${productId}/edit`);
    await page.getByRole('heading', { name: 'Edit product' }).waitFor();
    expect(await editOrder(page)).toEqual([notes.name]);
    const files = filesSection(page);
    expect(await files.getByRole('button', { name: `Remove ${notes.name}` }).isDisabled()).toBe(
      true,
    );
    expect(await page.getByLabel('Tell my buyers').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await addFile(page, bonus);
    expect(await editOrder(page)).toEqual([notes.name, bonus.name]);
    const tell = page.getByLabel('Tell my buyers');
    expect(await tell.isEnabled()).toBe(true);
    await tell.check();

    // Keyboard: focus Move up, press Enter; focus stays on the moved file's controls.
    await files.getByRole('button', { name: `Move ${bonus.name} up` }).focus();
    await page.keyboard.press('Enter');
    expect(await editOrder(page)).toEqual([bonus.name, notes.name]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Move ${bonus.name} down`,
    );
    await files
      .getByRole('status')
      .filter({ hasText: `${bonus.name} moved to position 1` })
      .waitFor();
    expect(
      await files.getByRole('radio', { name: `Preview from this file: ${notes.name}` }).isChecked(),
    ).toBe(true);
    await shoot(page, 'edit-product-files');
    await page.setViewportSize({ width: 1280, height: 900 });

    const patch = page.waitForRequest(
      (request) => request.method() === 'PATCH' && request.url().includes(`/api/products/`),
    );
    const answer = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes(productId),
    );
    await page.getByRole('button', { name: 'Save changes' }).click();
    const body = (await patch).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ notifyBuyers: true });
    expect(body.files).toHaveLength(2);
    expect(body).not.toHaveProperty('fileId');
    const saved = (await (await answer).json()) as {
      files: { fileName: string }[];
      fileName: string;
      buyersToldAt: string | null;
    };
    expect(saved.files.map((file) => file.fileName)).toEqual([bonus.name, notes.name]);
    expect(saved.fileName).toBe(notes.name);
    expect(saved.buyersToldAt).not.toBeNull();
    await expectToast(
      page,
      'Product updated successfully',
      'Your buyers will get an e-mail about the new files.',
    );
    await page.waitForURL('**/my-products');
    await page.close();
  }, 60_000);

  it('keeps the order, and Tell my buyers waits an hour before it can be used again', async () => {
    const page = await seller.open(`/my-products/${productId}/edit`);
    await page.getByRole('heading', { name: 'Edit product' }).waitFor();
    expect(await editOrder(page)).toEqual([bonus.name, notes.name]);
    expect(await seriousViolations(page)).toEqual([]);

    await addFile(page, {
      name: 'extra.zip',
      mimeType: 'application/zip',
      buffer: randomBytes(512),
    });
    const tell = page.getByLabel('Tell my buyers');
    expect(await tell.isDisabled()).toBe(true);
    await page.getByText(/You can tell them again in (5\d|60) minutes, at /).waitFor();
    await noToasts(page);
    expect(await seriousViolations(page)).toEqual([]);
    // Leaves without saving: the product keeps its two files.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/my-products');
    await page.close();
  }, 60_000);

  it('the buyer sees both files in the new order, downloads one, then all as a ZIP', async () => {
    const page = await buyer.open(successPath);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    const list = page.getByRole('list', { name: 'Files' });
    await list.waitFor();
    expect(await buyerOrder(list)).toEqual([bonus.name, notes.name]);
    expect(await seriousViolations(page)).toEqual([]);

    const one = await downloaded(
      page,
      list.getByRole('button', { name: `Download ${notes.name}` }),
    );
    expect(sha256(one)).toBe(sha256(notes.buffer));
    await expectToast(page, `Downloading ${notes.name}`);

    const zip = await downloaded(page, page.getByRole('button', { name: /Download all \(ZIP\)/ }));
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const entries = zipEntries(zip);
    expect(entries.map((entry) => entry.name).sort()).toEqual([bonus.name, notes.name].sort());
    for (const entry of entries.filter((candidate) => candidate.stored)) {
      const original = entry.name === notes.name ? notes.buffer : bonus.buffer;
      expect(sha256(entry.stored!)).toBe(sha256(original));
    }
    await shoot(page, 'payment-success-files');
    await page.close();
  }, 60_000);

  it('the update e-mail reaches the buyer, and its unsubscribe link works without signing in', async () => {
    const mail = await waitForMail(
      buyer.context,
      { to: buyerEmail, subject: `New in ${title}` },
      60_000,
    );
    expect(mail.subject).toContain(bonus.name);
    const link = linkIn(mail, '/unsubscribe/');

    const page = await reader.open(new URL(link).pathname);
    await page.getByRole('heading', { name: 'Product update e-mails' }).waitFor();
    await page
      .getByText(`Updates about products from the seller of “${title}” go to ${buyerEmail}.`)
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const unsubscribe = page.getByRole('button', { name: 'Unsubscribe' });
    await unsubscribe.click();
    const result = page
      .getByRole('status')
      .filter({ hasText: 'You are unsubscribed.' })
      .filter({ hasText: `You will not get update e-mails from this seller at ${buyerEmail}.` });
    await result.waitFor();
    expect(await page.getByRole('button', { name: 'Subscribe again' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'unsubscribed');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The server remembers it.
    await page.reload({ waitUntil: 'networkidle' });
    await result.waitFor();
    await page.getByRole('button', { name: 'Subscribe again' }).click();
    await page.getByText(`go to ${buyerEmail}.`).waitFor();
    await page.close();
  }, 90_000);

  it('an unknown unsubscribe link says so in the server’s words', async () => {
    const page = await reader.open(`/unsubscribe/${randomBytes(32).toString('base64url')}`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'This unsubscribe link is not valid' })
      .waitFor();
    await page.close();
  });
});
