import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpSeller, waitForMailWhere } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/**
 * Getting paid, as a seller does it: bank details verified with the (sandbox) provider, a sale,
 * Withdraw now, and the payout followed to its end on /dashboard/payments. The e2e stack pays
 * sales out at once (PAYOUT_HOLD_HOURS=-24) and sandbox transfers settle in two seconds.
 */
let seller: Browser;
let buyer: Browser;

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

async function setBankAccount(page: Page, accountNumber: string) {
  await page.goto('/settings', { waitUntil: 'networkidle' });
  const payouts = page.getByRole('region', { name: 'Payouts' });
  await payouts.getByRole('radio', { name: /Bank transfer/ }).check();
  await payouts.getByLabel('Bank', { exact: true }).selectOption({ label: 'Guaranty Trust Bank' });
  await payouts.getByLabel('Account number').fill(accountNumber);
  expect(await payouts.getByRole('button', { name: 'Save payout details' }).isDisabled()).toBe(
    true,
  );
  await payouts.getByRole('button', { name: 'Verify account' }).click();
  const holder = await payouts.getByTestId('resolved-account-name').innerText();
  expect(holder).toMatch(/^[A-Z]+ [A-Z]+$/);
  await payouts.getByLabel('Yes, this is my account').check();
  await payouts.getByRole('button', { name: 'Save payout details' }).click();
  await expectToast(page, 'Payout details saved');
  expect(await payouts.getByTestId('payout-destination').innerText()).toBe(
    `Guaranty Trust Bank •••• ${accountNumber.slice(-4)}`,
  );
}

async function sellOne(productId: string) {
  const page = await buyer.open(`/product/${productId}`);
  await page.getByRole('button', { name: 'Purchase Now' }).click();
  await page.getByLabel('E-mail', { exact: true }).fill(newAccount('buyer').email);
  await page.getByRole('button', { name: /^Buy now for/ }).click();
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
  await page.close();
}

const amount = (page: Page, name: string) => page.getByTestId(`balance-NGN-${name}`).innerText();

/** A new seller paid to `accountNumber`, with one NGN 5,000 sale, on /dashboard/payments. */
async function sellerWithOneSale(accountNumber: string) {
  const account = await signUpSeller(seller.context);
  const page = await seller.open('/settings');
  await setBankAccount(page, accountNumber);
  const productId = await publishProduct(seller.context, {
    bytes: randomBytes(2048),
    title: `Lagos beats ${Date.now().toString(36)}`,
    price: '5000.00',
    currency: 'NGN',
  });
  await sellOne(productId);
  await page.goto('/dashboard/payments', { waitUntil: 'networkidle' });
  await expect.poll(() => amount(page, 'available'), { timeout: 10_000 }).not.toMatch(/^₦0$/);
  return { account, page, available: await amount(page, 'available') };
}

describe('getting paid', () => {
  it('sets a verified bank account, sells, withdraws, and sees the payout go from in transit to paid', async () => {
    const { account, page, available } = await sellerWithOneSale('0123456789');
    await page.getByRole('button', { name: 'Withdraw now' }).click();
    await expectToast(page, 'Withdrawal started');
    const row = page.getByTestId('payout-row').first();
    expect(await row.innerText()).toContain('Guaranty Trust Bank •••• 6789');
    await row.getByText('In transit').waitFor();
    await row.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await row.innerText()).toContain(available);
    // The e2e stack takes sandbox payments: the payout is test money, marked as such (issue 29.8).
    expect(await row.getByText('Test', { exact: true }).isVisible()).toBe(true);
    expect(await row.innerText()).toContain(
      'Test money, paid out in the sandbox only: nothing was sent to this account.',
    );
    await expect.poll(() => amount(page, 'available')).toMatch(/^₦0$/);
    await expect.poll(() => amount(page, 'in-transit')).toMatch(/^₦0$/);
    expect(await amount(page, 'paid-out')).toBe(available);
    // Once a day: the button now says when it can be used again.
    expect(await page.getByRole('button', { name: 'Withdraw now' }).isDisabled()).toBe(true);
    await page.getByText(/You can withdraw again on/).waitFor();
    const sent = await waitForMailWhere(
      seller.context,
      (mail) => mail.to === account.email && mail.subject.startsWith('[TEST] Payout sent'),
    );
    expect(sent.text).toContain('the sandbox moved no real money');
    await page.close();
  }, 90_000);

  it('a failing account shows why, and the money is available again', async () => {
    const { account, page, available } = await sellerWithOneSale('0123450000');
    await page.getByRole('button', { name: 'Withdraw now' }).click();
    const row = page.getByTestId('payout-row').first();
    await row.getByText('Failed').waitFor({ timeout: 20_000 });
    expect(await row.innerText()).toContain('Check your account number');
    await expect.poll(() => amount(page, 'available')).toBe(available);
    expect(await amount(page, 'paid-out')).toMatch(/^₦0$/);
    await waitForMailWhere(
      seller.context,
      (mail) => mail.to === account.email && mail.subject.startsWith('[TEST] Payout failed'),
    );
    await page.close();
  }, 90_000);
});
