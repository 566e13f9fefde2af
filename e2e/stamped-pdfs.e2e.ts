import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { seriousViolations } from './support/axe';
import { shoot } from './support/screenshots';
import { payInSandbox } from './support/checkout';
import { launchBrowser, type Browser } from './support/browser';
import { pdfDocument, pdfPageTexts } from '@lockdrop/testing';
import { publishCreatedProduct, publishProduct } from './support/products';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const STAMP_OPTION = "Stamp each buyer's copy with their e-mail";
const stampingStatus = (page: Page, text: string) =>
  page.getByRole('status').filter({ hasText: text });

/** Chooses a file on the product form, uploads it and waits for its row to say so. */
async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel('Choose a file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByLabel('Uploaded', { exact: true }).waitFor();
}

let seller: Browser;
let buyer: Browser;
const ebook = pdfDocument('Field notes, chapter one');
const title = `Stamped field notes ${Date.now().toString(36)}`;
const buyerEmail = `stamped-buyer-${Date.now().toString(36)}@example.com`;
let productId = '';

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  await signUpSeller(seller.context);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

describe('stamped PDFs', () => {
  it('the seller ticks stamping for a PDF on /create-product (offered for PDFs only) and publishes', async () => {
    const page = await seller.open('/create-product');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Price').fill('6.00');

    const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(1024)]);
    await upload(page, { name: 'notes.zip', mimeType: 'application/zip', buffer: zip });
    expect(await page.getByLabel(STAMP_OPTION).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove notes.zip' }).click();
    await page.getByLabel('Uploaded', { exact: true }).waitFor({ state: 'detached' });

    await upload(page, { name: 'field-notes.pdf', mimeType: 'application/pdf', buffer: ebook });
    const option = page.getByLabel(STAMP_OPTION);
    expect(await option.isChecked()).toBe(false);
    expect(
      await page
        .getByText("Every page of the PDF gets 'Licensed to <buyer's e-mail>' in its footer.")
        .isVisible(),
    ).toBe(true);

    // Hold delivery's answer until the form has said it is checking (the first ask stamps a sample).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/uploads/*/pdf-stamping', async (route) => {
      await held;
      await route.continue();
    });
    const answered = page.waitForResponse((response) => response.url().endsWith('/pdf-stamping'));
    await option.check();
    await stampingStatus(page, 'Checking this PDF…').waitFor();
    release();
    expect((await answered).status()).toBe(200);
    await stampingStatus(page, 'Checking this PDF…').waitFor({ state: 'detached' });
    expect(await page.getByText('buyers get it unstamped').count()).toBe(0);
    await shoot(page, 'create-product-stamped-pdf');

    const created = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/products'),
    );
    await page.getByRole('button', { name: 'Create Product' }).click();
    expect((await created).postDataJSON()).toMatchObject({ stampPdfs: true });
    productId = await publishCreatedProduct(page, title);
    await page.close();
  }, 60_000);

  it("the buyer pays and downloads their own copy, 'Licensed to' their e-mail", async () => {
    const page = await buyer.open(`/product/${productId}`);
    await page.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await page.getByRole('button', { name: 'Buy now for $6.00' }).click();
    await payInSandbox(page, '$6.00');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download File/ }).click(),
    ]);
    const copy = await readFile(await download.path());
    expect(copy.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(sha256(copy)).not.toBe(sha256(ebook));
    const [firstPage, ...rest] = await pdfPageTexts(copy);
    expect(rest).toEqual([]);
    expect(firstPage).toContain('Field notes, chapter one');
    expect(firstPage).toContain(`Licensed to ${buyerEmail}`);
    await page.close();
  }, 60_000);

  it('warns on the edit screen that a password-protected PDF reaches buyers unstamped', async () => {
    const lockedTitle = `Locked notes ${Date.now().toString(36)}`;
    const id = await publishProduct(seller.context, {
      bytes: pdfDocument('Locked chapter', { encrypted: true }),
      title: lockedTitle,
      fileName: 'locked.pdf',
      mimeType: 'application/pdf',
      stampPdfs: true,
    });
    const page = await seller.open(`/my-products/${id}/edit`);
    await page.getByRole('heading', { name: 'Edit product' }).waitFor();
    expect(await page.getByLabel(STAMP_OPTION).isChecked()).toBe(true);
    await stampingStatus(
      page,
      'This PDF is password-protected, so buyers get it unstamped',
    ).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'edit-product-encrypted-pdf');
    await page.close();
  });
});
