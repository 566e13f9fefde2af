import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, waitForMail, linkIn } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/**
 * Team seats (issue 28): a Pro owner invites an editor from Settings → Team, the invitee accepts
 * from the e-mailed link, switches to the store and works on its products — and sees none of
 * the owner's payout settings.
 */
let owner: Browser;
let invitee: Browser;

beforeAll(async () => {
  [owner, invitee] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([owner?.close(), invitee?.close()]);
});

async function upgradeToPro(page: Page) {
  const card = page.getByRole('region', { name: 'Current plan' });
  await card.getByText('Free', { exact: true }).waitFor();
  await card.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: /^Subscribe — / }).click();
  await page.waitForURL('**/settings?plan_payment=1**');
  await expectToast(page, 'You are now on the Pro plan.');
}

describe('a team member', () => {
  it('is invited by e-mail, accepts from the link, switches to the store and edits its products only', async () => {
    await signUpSeller(owner.context, { verified: true, prefix: 'owner' });
    const member = await signUpSeller(invitee.context, { verified: true, prefix: 'editor' });
    const title = `Team notes ${randomBytes(3).toString('hex')}`;
    await publishProduct(owner.context, { bytes: randomBytes(2048), title });

    const settings = await owner.open('/settings');
    const team = settings.getByRole('region', { name: 'Team' });
    await team.getByText('Your plan has no team seats').waitFor();
    await settings.goto('/dashboard');
    // Back on /settings once the plan is paid.
    await upgradeToPro(settings);
    await team.getByText('0 of 3 seats used').waitFor();
    await team.getByLabel('E-mail').fill(member.email);
    await team.getByLabel('Role').selectOption('editor');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(settings, `Invitation sent to ${member.email}`);
    await team.locator(`li[data-invite="${member.email}"]`).waitFor();

    const mail = await waitForMail(invitee.context, { to: member.email, subject: 'invited you' });
    const link = new URL(linkIn(mail, '/invite?token='));
    const page = await invitee.open(`${link.pathname}${link.search}`);
    await page.getByText(/You joined .+ as editor\./).waitFor();
    await page.getByTestId('open-store').click();
    await page.waitForURL('**/dashboard');

    // The seller menu is the store's, limited to what an editor may do.
    const menu = page.getByRole('navigation', { name: 'Seller' });
    await menu.getByRole('link', { name: 'Products' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Payments' }).count()).toBe(0);
    expect(await page.getByTestId('seller-identity').innerText()).toContain('editor');
    await menu.getByRole('link', { name: 'Products' }).click();
    await page.getByText(title).first().waitFor();

    // No payout destination (nor plan, nor the owner's account settings) while acting.
    await page.goto('/settings', { waitUntil: 'networkidle' });
    await page.getByTestId('acting-note').waitFor();
    expect(await page.getByRole('region', { name: /payout/i }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Current plan' }).count()).toBe(0);
    // And the server agrees, whatever the page shows.
    const destination = await invitee.context.request.get('/api/payouts/destination');
    expect(destination.status()).toBe(403);

    // The owner sees the new member and removes them while they are still in the store's
    // dashboard: their next request is refused and the app goes back to their own account.
    await page.goto('/dashboard', { waitUntil: 'networkidle' });
    await settings.reload({ waitUntil: 'networkidle' });
    await team.locator(`li[data-member="${member.email}"]`).waitFor();
    await team.getByRole('button', { name: `Remove ${member.email}` }).click();
    await expectToast(settings, `${member.email} was removed`);
    // A screen whose data this tab has not loaded yet, so it asks the server.
    await menu.getByRole('link', { name: 'Discounts' }).click();
    await expectToast(page, 'You are no longer a member of that store');
    await expect.poll(() => page.getByTestId('seller-identity').innerText()).toContain('Free plan');
    // A reload finds the person's own account too.
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByText(title).count()).toBe(0);
    await Promise.all([page.close(), settings.close()]);
  }, 120_000);
});
