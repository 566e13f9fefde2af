import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpSeller, verifyEmail, waitForMail } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { shoot } from './support/screenshots';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A published product with a file of `bytes`, made through the API as its seller would. */
async function publishedProduct(
  context: BrowserContext,
  bytes: Buffer,
  title: string,
): Promise<string> {
  await signUpSeller(context);
  return publishProduct(context, { bytes, title });
}

/** Clicks a Download File button and returns the SHA-256 of the file the browser saved. */
async function downloadedHash(
  page: Page,
  button = page.getByRole('button', { name: /Download File/ }),
) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.first().click()]);
  const path = await download.path();
  return sha256(await readFile(path));
}

let seller: Browser;
let buyer: Browser;
let member: Browser;
// A zip-like payload: random bytes, so a byte-for-byte match proves the original came back.
const file = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(64 * 1024)]);
const title = `Field notes ${Date.now().toString(36)}`;
const buyerAccount = newAccount('buyer');
let productId = '';

beforeAll(async () => {
  [seller, buyer, member] = await Promise.all([launchBrowser(), launchBrowser(), launchBrowser()]);
  productId = await publishedProduct(seller.context, file, title);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), member?.close()]);
});

describe('buying a file', () => {
  it("pays on the provider's page, lands on 'Payment Successful!' and downloads the exact file", async () => {
    const page = await buyer.open(`/product/${productId}`);
    await page.getByText('Preview not available').waitFor();
    expect(await page.getByText('Purchase to access full content').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Purchase Now' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'purchase');
    expect(await page.getByText(/You get field-notes\.zip \(64(\.0)? KB\)/).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /Download File/ }).count()).toBe(0);
    await page.getByLabel('E-mail', { exact: true }).fill(buyerAccount.email);
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await page.waitForURL('**/sandbox/checkout/**');
    await page.getByRole('button', { name: 'Pay $7.00' }).click();

    await page.waitForURL('**/payment/success?**');
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText(title).isVisible()).toBe(true);
    await page.getByText('field-notes.zip', { exact: true }).waitFor();
    expect(await page.getByText('Download links are valid for 1 hour').isVisible()).toBe(true);
    expect(await downloadedHash(page)).toBe(sha256(file));
    await page.getByText('Downloading field-notes.zip').waitFor();
    await shoot(page, 'payment-success');
    await page.close();
  });

  it('shows the checkout browser its access on the product page', async () => {
    const page = await buyer.open(`/product/${productId}`);
    await page.getByText('You have full access to this product').waitFor();
    expect(await downloadedHash(page)).toBe(sha256(file));
    await page.close();
  });

  it("cancelling on the provider's page shows 'Payment canceled'", async () => {
    const page = await member.open(`/product/${productId}`);
    await page.getByLabel('E-mail', { exact: true }).fill(`someone-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await page.waitForURL('**/sandbox/checkout/**');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/payment/cancel**');
    await page.getByRole('heading', { name: 'Payment canceled' }).waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.close();
  });

  it('lists the likely reasons when a reference is not found', async () => {
    const page = await member.open(
      '/payment/success?status=successful&tx_ref=not-a-real-reference',
    );
    await page.getByText('The payment reference in this link is invalid.').waitFor();
    expect(
      await page
        .getByText('You are not signed in with the e-mail address you used at checkout.')
        .isVisible(),
    ).toBe(true);
    await page.close();
  });

  it("says 'Unable to find purchase details' when the link carries no reference", async () => {
    const page = await member.open('/payment/success?status=successful');
    await expectToast(page, 'Unable to find purchase details');
    await page.close();
  });

  it("the receipt e-mail's link downloads the file in any browser, without an account", async () => {
    const receipt = await waitForMail(member.context, {
      to: buyerAccount.email,
      subject: `Your receipt for ${title}`,
    });
    const link = receipt.links.find((href) => href.includes('/receipt/'));
    const page = await member.open(new URL(link!).pathname);
    await page.getByRole('heading', { name: 'Your purchase' }).waitFor();
    await page.getByText('field-notes.zip', { exact: true }).waitFor();
    expect(await downloadedHash(page)).toBe(sha256(file));
    await shoot(page, 'receipt');
    await page.close();
  });

  it('the buyer signs up with the purchase e-mail, verifies it, and downloads from /purchases', async () => {
    const signUp = await member.context.request.post(`${baseUrl}/api/auth/sign-up`, {
      data: { ...buyerAccount, acceptTerms: true },
    });
    expect(signUp.status()).toBe(201);
    const unverified = await member.open('/purchases');
    await unverified.getByText('Verify your e-mail to see your purchases').waitFor();
    await shoot(unverified, 'purchases-unverified');
    await unverified.close();

    await verifyEmail(member.context, buyerAccount.email);
    const page = await member.open('/purchases');
    await page.getByRole('heading', { name: 'Your Purchases (1)' }).waitFor();
    expect(await page.getByText('$7.00').isVisible()).toBe(true);
    await page.getByText('field-notes.zip', { exact: true }).waitFor();
    expect(await downloadedHash(page)).toBe(sha256(file));
    await shoot(page, 'purchases');
    await page.close();
  });
});

describe('/payment/success while the webhook is on its way', () => {
  it('says the payment is being confirmed, polls, then shows the purchase (txRef works too)', async () => {
    const page = await member.context.newPage();
    let calls = 0;
    // Pins the page's side of the contract: the real stack settles too fast to catch 'pending'.
    await page.route('**/api/purchases/by-reference?*', (route) => {
      calls += 1;
      const paid = calls > 1;
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          status: paid ? 'paid' : 'pending',
          txRef: 'ld_pending_ref',
          purchase: paid
            ? {
                id: '00000000-0000-4000-8000-000000000001',
                productId: '00000000-0000-4000-8000-000000000002',
                productTitle: 'Slow webhook',
                fileName: 'slow.pdf',
                amountMinor: 1500,
                currency: 'NGN',
                status: 'paid',
                paymentReference: 'ld_pending_ref',
                createdAt: new Date().toISOString(),
                testMode: true,
                subscriptionId: null,
                renewal: false,
                discount: null,
              }
            : null,
        }),
      });
    });
    await page.route('**/api/downloads/files?*', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          files: [
            {
              fileId: '00000000-0000-4000-8000-000000000003',
              fileName: 'slow.pdf',
              sizeBytes: 2048,
              kind: 'pdf',
            },
          ],
          zip: { fileName: 'slow-webhook.zip', sizeBytes: 2200 },
        }),
      }),
    );
    await page.goto('/payment/success?status=successful&txRef=ld_pending_ref');
    await page.getByRole('heading', { name: 'Your payment is being confirmed' }).waitFor();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 10_000 });
    expect(await page.getByText('₦15', { exact: true }).isVisible()).toBe(true);
    await page.getByText('slow.pdf', { exact: true }).waitFor();
    await page.close();
  });

  it("sends status=cancelled to 'Payment canceled'", async () => {
    const page = await member.open('/payment/success?status=cancelled&tx_ref=ld_any');
    await page.getByRole('heading', { name: 'Payment canceled' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/payment/cancel');
    await page.close();
  });
});
