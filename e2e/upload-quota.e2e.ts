import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';

/**
 * Issue 29, item 12: the plan's monthly uploads count every file (a product of several files uses
 * several), the screens say so, and the editor offers no more files than the month has left —
 * not the 20 a product could hold.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const filesSection = (page: Page) => page.getByRole('region', { name: 'Files' });

describe('upload quota', () => {
  it('says every file counts, and stops offering files when the month is used up', async () => {
    await signUpSeller(browser.context);
    // One product (one upload), then 13 more files: 14 of the Free plan's 15.
    const productId = await publishProduct(browser.context, {
      bytes: randomBytes(512),
      title: 'Quota notes',
    });
    for (let index = 0; index < 13; index += 1) {
      const upload = await browser.context.request.post(`${baseUrl}/api/uploads`, {
        multipart: {
          file: {
            name: `extra-${index}.zip`,
            mimeType: 'application/zip',
            buffer: randomBytes(64),
          },
        },
      });
      expect(upload.status()).toBe(201);
    }

    const dashboard = await browser.open('/dashboard');
    const plan = dashboard.getByRole('region', { name: 'Current plan' });
    await expect.poll(() => plan.getByRole('definition').nth(1).innerText()).toBe('14');
    expect(await plan.getByTestId('uploads-count-files').innerText()).toBe(
      'Every file you upload counts as one upload, including each file of a product with several.',
    );
    await dashboard.close();

    const page = await browser.open(`/my-products/${productId}/edit`);
    const files = filesSection(page);
    await expect
      .poll(() => files.getByTestId('uploads-left').innerText())
      .toBe('Each file you add counts as one of your monthly uploads: 1 left this month.');
    await files.getByRole('button', { name: 'Add file' }).click();
    await page
      .getByText(/14 of 15 uploads used this month\. Every file you upload counts/)
      .waitFor();
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'second.zip', mimeType: 'application/zip', buffer: randomBytes(256) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await files.getByRole('radio', { name: 'Preview from this file: second.zip' }).waitFor();

    // The product has room for 18 more files; the month has none.
    await expect
      .poll(() => files.getByTestId('uploads-left').innerText())
      .toContain('0 left this month');
    const add = files.getByRole('button', { name: 'Add file' });
    expect(await add.isDisabled()).toBe(true);
    expect(await files.getByText("You have used this month's uploads.").isVisible()).toBe(true);
    expect(await files.getByText('2 of 20 files.', { exact: false }).isVisible()).toBe(true);
    await page.close();
  }, 90_000);
});
