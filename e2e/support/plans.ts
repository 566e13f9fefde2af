import type { Page } from 'playwright-core';
import { expectToast } from './toasts';

/** From /settings: a free seller upgrades to Pro, paying in the sandbox's hosted page. */
export async function upgradeToPro(page: Page): Promise<void> {
  const card = page.getByRole('region', { name: 'Current plan' });
  await card.getByText('Free', { exact: true }).waitFor();
  await card.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: /^Subscribe — / }).click();
  await page.waitForURL('**/settings?plan_payment=1**');
  await expectToast(page, 'You are now on the Pro plan.');
}
