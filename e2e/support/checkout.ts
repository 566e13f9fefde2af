import type { Page } from 'playwright-core';

/** Pays `amount` (as its button shows it, e.g. "$7.00") on the sandbox provider's page and waits for 'Payment Successful!'. */
export async function payInSandbox(page: Page, amount: string): Promise<void> {
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: `Pay ${amount}` }).click();
  await page.waitForURL('**/payment/success?**');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
}
