import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

let seller: Browser;

beforeAll(async () => {
  seller = await launchBrowser();
  await signUpSeller(seller.context);
});
afterAll(async () => {
  await seller?.close();
});

describe('a file that cannot be sold', () => {
  it('an empty file is refused the moment it is chosen, with the reason, and nothing is uploaded', async () => {
    const page = await seller.open('/create-product');
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/uploads') && request.method() === 'POST')
        uploads.push(request.url());
    });
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) });
    await expectToast(page, 'This file is empty (0 bytes): choose a file with something in it');
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0);
    expect(uploads).toEqual([]);
    await page.close();
  }, 60_000);
});
