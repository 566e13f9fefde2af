import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { formatUploads, planById } from '@lockdrop/plans';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/**
 * Recurring billing in the browser with the sandbox provider: a seller upgrading their own plan,
 * and a buyer subscribing to a monthly product, downloading it, and cancelling.
 */
let seller: Browser;
let buyer: Browser;

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function downloadedHash(page: Page) {
  const button = page.getByRole('button', { name: /Download File/ }).first();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return sha256(await readFile((await download.path())!));
}

const planFigure = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Current plan' })
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('dd')
    .innerText();

describe("a seller's own plan", () => {
  it('a seller on Free upgrades to Pro in the sandbox and sees Pro with its allowance on the dashboard', async () => {
    await signUpSeller(seller.context);
    const page = await seller.open('/dashboard');
    const card = page.getByRole('region', { name: 'Current plan' });
    // The card renders after the plan arrives: wait for it rather than look once.
    await card.getByText('Free', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Upgrade to Pro' }).click();

    await page.waitForURL('**/sandbox/checkout/**');
    expect(await page.getByTestId('product').innerText()).toBe('Lockdrop Pro');
    await page.getByRole('button', { name: /^Subscribe — / }).click();

    // Back on /settings, the page waits for the provider's confirmation, then the new plan shows.
    await page.waitForURL('**/settings?plan_payment=1**');
    await expectToast(page, 'You are now on the Pro plan.');
    const plan = page.getByRole('region', { name: 'Plan' });
    expect(await plan.locator('[data-plan]').getAttribute('data-plan')).toBe('pro');
    expect(await plan.getByTestId('plan-summary').innerText()).toMatch(
      /^Renews on .+ for \$19\.99 per month\.$/,
    );

    await page.goto('/dashboard', { waitUntil: 'networkidle' });
    await card.getByText('Pro', { exact: true }).waitFor();
    expect(await planFigure(page, 'Uploads')).toBe(formatUploads(planById('pro')));
    expect(await planFigure(page, 'Platform fee')).toBe('2.5%');
    await expect
      .poll(() => planFigure(page, 'Remaining'), { timeout: 15_000 })
      .toBe(String(planById('pro').uploadsPerMonth));
    await page.close();
  });
});

describe('a subscription to a product', () => {
  it('subscribes to a monthly product, downloads it, cancels from /purchases and keeps access until the period ends', async () => {
    await signUpSeller(seller.context);
    const file = randomBytes(4096);
    const title = `Monthly beats ${Date.now().toString(36)}`;
    const productId = await publishProduct(seller.context, {
      bytes: file,
      title,
      price: '7.00',
      pricing: { type: 'recurring', interval: 'monthly' },
    });
    const subscriber = await signUpSeller(buyer.context, { verified: true, prefix: 'subscriber' });

    const page = await buyer.open(`/product/${productId}`);
    await page.getByText('$7.00 per month').first().waitFor();
    await page.getByRole('button', { name: 'Purchase Now' }).click();
    await page.getByLabel('E-mail', { exact: true }).fill(subscriber.email);
    await page.getByRole('button', { name: 'Subscribe for $7.00 per month' }).click();
    await page.waitForURL('**/sandbox/checkout/**');
    await page.getByRole('button', { name: 'Subscribe — $7.00 per month' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    expect(await downloadedHash(page)).toBe(sha256(file));

    await page.goto('/purchases', { waitUntil: 'networkidle' });
    const subscription = page.getByTestId('subscription');
    await subscription.waitFor();
    expect(await subscription.getByText(title).isVisible()).toBe(true);
    expect(await subscription.getByTestId('subscription-status').innerText()).toBe('Active');
    expect(await subscription.getByTestId('subscription-summary').innerText()).toMatch(
      /^Renews on .+ for \$7\.00 per month\.$/,
    );

    await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
    await expectToast(page, 'You keep access until');
    await expect
      .poll(() => subscription.getByTestId('subscription-status').innerText())
      .toBe('Cancelled');
    expect(await subscription.getByTestId('subscription-summary').innerText()).toMatch(
      /^Cancelled — you keep access until .+\. Nothing more is charged\.$/,
    );
    // Still theirs until the period ends: the download works after cancelling.
    expect(await downloadedHash(page)).toBe(sha256(file));
    expect(await subscription.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true);
    await page.close();
  });
});
