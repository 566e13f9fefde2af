import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, waitForMailWhere } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { makeSessionStale } from './support/sessions';
import { expectToast } from './support/toasts';

/**
 * Issue 30, item 4, as a seller meets it: saving payout details from a session whose sign-in is
 * old opens a "Confirm it's you" dialog; the password there saves the details without typing
 * them again. The stale session is made the way a stolen refresh cookie would give it
 * (support/sessions.ts).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('payout details need a recent sign-in', () => {
  it('asks for the password in a dialog, then saves the details the seller typed', async () => {
    const account = await signUpSeller(browser.context);
    await makeSessionStale(browser.context, account.email);
    const page = await browser.open('/settings');
    const payouts = page.getByRole('region', { name: 'Payouts' });
    await payouts.getByRole('radio', { name: /Wise/ }).check();
    await payouts.getByLabel('Wise e-mail', { exact: true }).fill('payouts@example.com');
    await payouts.getByLabel('Wise account ID').fill('12345678');
    await payouts.getByRole('button', { name: 'Save payout details' }).click();

    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.getByLabel('Password', { exact: true }).waitFor();
    expect(await dialog.innerText()).toContain('Enter your password.');
    await dialog.getByLabel('Password', { exact: true }).fill('not the password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('The password you entered is incorrect').waitFor();
    expect(await payouts.getByTestId('payout-destination').count()).toBe(0);

    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Payout details saved');
    await dialog.waitFor({ state: 'hidden' });
    expect(await payouts.getByTestId('payout-destination').innerText()).toBe(
      'Wise p•••@example.com',
    );
    await waitForMailWhere(
      browser.context,
      (mail) =>
        mail.to === account.email &&
        mail.subject === 'A payout destination was added to your Lockdrop account',
    );
    await page.close();
  }, 60_000);

  it('cancelling the dialog saves nothing', async () => {
    const account = await signUpSeller(browser.context);
    await makeSessionStale(browser.context, account.email);
    const page = await browser.open('/settings');
    const payouts = page.getByRole('region', { name: 'Payouts' });
    await payouts.getByRole('radio', { name: /Wise/ }).check();
    await payouts.getByLabel('Wise e-mail', { exact: true }).fill('payouts@example.com');
    await payouts.getByLabel('Wise account ID').fill('12345678');
    await payouts.getByRole('button', { name: 'Save payout details' }).click();
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const answer = await (await browser.context.request.get('/api/payouts/destination')).json();
    expect(answer.destination).toBeNull();
    await page.close();
  }, 60_000);
});
