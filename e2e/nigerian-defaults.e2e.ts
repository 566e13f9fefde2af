import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/**
 * Issue 29, item 10: a Lagos seller's defaults. The bank list is as long as the real one (the
 * banks Nigerians use today among them), naira prices read ₦2,500 rather than "NGN 2,500.00",
 * and a plan can be chosen and paid in naira.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Nigerian defaults', () => {
  it('lists the banks Nigerians use, shows naira as ₦, and sells a plan in naira', async () => {
    await signUpSeller(browser.context);

    // The payout bank list: the digital banks, not only the eight old ones.
    const settings = await browser.open('/settings');
    const payouts = settings.getByRole('region', { name: 'Payouts' });
    await payouts.getByRole('radio', { name: /Bank transfer/ }).check();
    const bank = payouts.getByLabel('Bank', { exact: true });
    await expect.poll(() => bank.locator('option').count()).toBeGreaterThan(20);
    const banks = await bank.locator('option').allInnerTexts();
    for (const name of ['Moniepoint', 'OPay', 'PalmPay', 'Kuda'])
      expect(
        banks.some((label) => label.includes(name)),
        name,
      ).toBe(true);

    // A naira price as people write it, on the product page a buyer sees.
    const productId = await publishProduct(browser.context, {
      bytes: randomBytes(1024),
      title: 'Lagos budget planner',
      price: '2500.00',
      currency: 'NGN',
    });
    const product = await browser.open(`/product/${productId}`);
    await product.getByRole('heading', { name: 'Lagos budget planner' }).waitFor();
    const body = await product.locator('main').innerText();
    expect(body).toContain('₦2,500');
    expect(body).not.toContain('NGN 2,500');
    // Shown in dollars, the original price says its currency once, by its sign.
    await product.getByLabel('Show in').selectOption('USD');
    await product.getByText('Originally ₦2,500', { exact: true }).waitFor();
    expect(await product.getByText(/Originally .*\(NGN\)/).count()).toBe(0);
    await product.close();

    // Settings → Plan: Pro, paid in naira, charged in naira at the sandbox checkout.
    await settings.reload({ waitUntil: 'networkidle' });
    const plan = settings.getByRole('group', { name: 'Change plan' });
    await plan.getByLabel('Plan').selectOption('pro');
    await plan.getByLabel('Pay in').selectOption('NGN');
    expect(await plan.getByLabel('Plan').locator('option[value="pro"]').innerText()).toContain(
      '₦30,000',
    );
    await plan.getByRole('button', { name: 'Change plan' }).click();
    await settings.waitForURL('**/sandbox/checkout/**');
    await settings.getByRole('button', { name: 'Subscribe — ₦30,000' }).waitFor();
    await settings.getByRole('button', { name: /^Subscribe — / }).click();
    await settings.waitForURL('**/settings?plan_payment=1**');
    await expectToast(settings, 'You are now on the Pro plan.');
    // Paid in naira, the plan stays in naira: the choice of currency is closed.
    const paidPlan = settings.getByRole('group', { name: 'Change plan' });
    await expect.poll(() => paidPlan.getByLabel('Pay in').isDisabled()).toBe(true);
    expect(await paidPlan.getByLabel('Pay in').inputValue()).toBe('NGN');
  });
});
