import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, readMailbox, signUpSeller, waitForMail } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { shoot } from './support/screenshots';

/**
 * Issue 30 item 10: a free claim by an address that has not proven itself gets one confirmation
 * e-mail, and the file only through its link.
 */
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let seller: Browser;
let claimant: Browser;
const file = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(16 * 1024)]);
const title = `Free field guide ${Date.now().toString(36)}`;
const code = `GIFT-${randomBytes(3).toString('hex').toUpperCase()}`;
let productId = '';

beforeAll(async () => {
  [seller, claimant] = await Promise.all([launchBrowser(), launchBrowser()]);
  await signUpSeller(seller.context);
  productId = await publishProduct(seller.context, { bytes: file, title, price: '6.00' });
  const created = await seller.context.request.post(`${baseUrl}/api/discount-codes`, {
    data: { code, kind: 'percent', percentOff: 100, productIds: [productId] },
  });
  expect(created.status()).toBe(201);
});
afterAll(async () => {
  await Promise.all([seller?.close(), claimant?.close()]);
});

describe('a free claim by a new address', () => {
  it('says "Check your e-mail", and the e-mailed link opens the receipt with the file', async () => {
    const buyerEmail = `claimant-${Date.now().toString(36)}@example.com`;
    const page = await claimant.open(`/product/${productId}?code=${code}`);
    await page.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await page.getByRole('button', { name: 'Get it for free' }).click();
    await page.getByText('Check your e-mail to confirm').waitFor();
    expect(page.url()).toContain(`/product/${productId}`);
    await shoot(page, 'free-claim-check-email');

    const confirmation = await waitForMail(page, {
      to: buyerEmail,
      subject: `Confirm your e-mail to get ${title}`,
    });
    // One e-mail only, and no receipt, until the link is opened.
    const before = (await readMailbox(page)).filter((mail) => mail.to === buyerEmail);
    expect(before.map((mail) => mail.subject)).toEqual([confirmation.subject]);

    const link = linkIn(confirmation, '/api/checkout/claims/confirm');
    const receipt = await claimant.open(link.replace(/^https?:\/\/[^/]+/, ''));
    await receipt.waitForURL('**/receipt/**');
    await receipt.getByRole('heading', { name: 'Your purchase' }).waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([
      receipt.waitForEvent('download'),
      receipt
        .getByRole('button', { name: /Download/ })
        .first()
        .click(),
    ]);
    expect(sha256(await readFile(await download.path()))).toBe(sha256(file));
    await shoot(receipt, 'free-claim-receipt');

    // The same link again lands on the same receipt.
    const again = await claimant.open(link.replace(/^https?:\/\/[^/]+/, ''));
    await again.waitForURL(receipt.url());
    await waitForMail(page, { to: buyerEmail, subject: `Your receipt for ${title}` });
    await Promise.all([page.close(), receipt.close(), again.close()]);
  }, 90_000);
});
