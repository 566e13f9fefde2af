import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, newAccount, signUpSeller, waitForMail } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';
import { upgradeToPro } from './support/plans';

/**
 * Team seats (issue 28): a Pro owner invites an editor from Settings → Team, the invitee accepts
 * from the e-mailed link, switches to the store and works on its products — and sees none of
 * the owner's payout settings. Then the "Done means": an editor makes a product and
 * cannot see payouts, an accountant exports sales but cannot refund, and a downgrade to Free
 * leaves both read-only.
 */
let owner: Browser;
let invitee: Browser;
let accountant: Browser;
let buyer: Browser;

beforeAll(async () => {
  [owner, invitee, accountant, buyer] = await Promise.all([
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await Promise.all([owner?.close(), invitee?.close(), accountant?.close(), buyer?.close()]);
});

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

/** Settings → Plan: Pro, paid yearly (an annual plan can be cancelled now with a refund). */
const planCard = (page: Page) => page.getByRole('region', { name: 'Plan', exact: true });
async function upgradeToProYearly(page: Page) {
  const card = planCard(page);
  await card.locator('[data-plan="free"]').waitFor();
  await card.getByRole('combobox', { name: /^Plan/ }).selectOption('pro');
  await card.getByLabel('Yearly (save 17%)').check();
  await card.getByRole('button', { name: 'Change plan' }).click();
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: /^Subscribe — / }).click();
  await page.waitForURL('**/settings?plan_payment=1**');
  await expectToast(page, 'You are now on the Pro plan.');
}

/** The owner invites `member` from Settings → Team; the member accepts and opens the store. */
async function join(settings: Page, member: Browser, email: string, role: string): Promise<Page> {
  const team = settings.getByRole('region', { name: 'Team' });
  await team.getByLabel('E-mail').fill(email);
  await team.getByLabel('Role').selectOption(role);
  await team.getByRole('button', { name: 'Send invitation' }).click();
  await expectToast(settings, `Invitation sent to ${email}`);
  const mail = await waitForMail(member.context, { to: email, subject: 'invited you' });
  const link = new URL(linkIn(mail, '/invite?token='));
  const page = await member.open(`${link.pathname}${link.search}`);
  await page.getByText(new RegExp(`You joined .+ as ${role}\\.`)).waitFor();
  await page.getByTestId('open-store').click();
  await page.waitForURL('**/dashboard');
  return page;
}

describe("issue 28's Done means", () => {
  it('an editor makes a product but never sees payouts; an accountant exports sales but cannot refund; Free leaves both read-only', async () => {
    await signUpSeller(owner.context, { verified: true, prefix: 'pro-owner' });
    const editor = await signUpSeller(invitee.context, { verified: true, prefix: 'editor' });
    const counter = await signUpSeller(accountant.context, { verified: true, prefix: 'counter' });
    const productId = await publishProduct(owner.context, {
      bytes: randomBytes(2048),
      title: `Shop notes ${randomBytes(3).toString('hex')}`,
    });
    // One sale, bought in the browser, for the accountant to see and export.
    const buyerEmail = newAccount('team-buyer').email;
    const shop = await buyer.open(`/product/${productId}`);
    await shop.getByRole('button', { name: 'Purchase Now' }).click();
    await shop.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await shop.getByRole('button', { name: /^Buy now for/ }).click();
    await shop.waitForURL('**/sandbox/checkout/**');
    await shop.getByRole('button', { name: /^Pay / }).click();
    await shop.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    await shop.close();

    const settings = await owner.open('/settings');
    await upgradeToProYearly(settings);
    // Identity gives the seats when it hears of the plan (payments' plan.changed).
    await expect
      .poll(
        async () => {
          await settings.reload({ waitUntil: 'networkidle' });
          return settings
            .getByRole('region', { name: 'Team' })
            .getByText('0 of 3 seats used')
            .count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);

    // The editor, invited in the browser, makes a product for the store in the browser.
    const editing = await join(settings, invitee, editor.email, 'editor');
    const menu = editing.getByRole('navigation', { name: 'Seller' });
    await editing.goto('/create-product', { waitUntil: 'networkidle' });
    const title = `Made by the editor ${randomBytes(3).toString('hex')}`;
    await editing.getByLabel('Title').fill(title);
    await editing.getByLabel('Description').fill('Written by the team.');
    await editing.getByLabel('Price').fill('9.00');
    await editing
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'team.zip', mimeType: 'application/zip', buffer: randomBytes(1024) });
    await editing.getByRole('button', { name: 'Upload', exact: true }).click();
    await editing.getByText('File uploaded successfully!').waitFor();
    await editing.getByRole('button', { name: 'Create Product' }).click();
    await editing.getByText('Product created successfully!').waitFor();
    // It is the store's: the owner has it among theirs.
    const mine = await owner.context.request.get('/api/products/mine');
    expect(JSON.stringify(await mine.json())).toContain(title);
    // No payouts: no menu entry, the page answers the no-access screen, the server refuses.
    await menu.getByRole('link', { name: 'Products' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Payments' }).count()).toBe(0);
    await editing.goto('/dashboard/payments', { waitUntil: 'networkidle' });
    await editing.getByTestId('no-access').getByText('Your role in').waitFor();
    expect(await editing.getByText('Withdraw now').count()).toBe(0);
    expect((await invitee.context.request.get('/api/payouts/balances')).status()).toBe(403);

    // The accountant sees the sale, exports it, and has no Refund button; the server refuses one.
    const counting = await join(settings, accountant, counter.email, 'accountant');
    await counting
      .getByRole('navigation', { name: 'Seller' })
      .getByRole('link', { name: 'Payments' })
      .click();
    const sales = counting.getByRole('region', { name: 'Sales history' });
    await sales.getByText(buyerEmail).first().waitFor();
    expect(await counting.getByRole('button', { name: /^Refund / }).count()).toBe(0);
    const [download] = await Promise.all([
      counting.waitForEvent('download'),
      sales.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lockdrop-sales.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain(`"${buyerEmail}"`);
    const saleId = /"([0-9a-f-]{36})"\r\n$/.exec(csv)![1]!;
    const refund = await accountant.context.request.post(`/api/purchases/${saleId}/refund`, {
      data: {},
    });
    expect(refund.status()).toBe(403);
    expect((await refund.json()).error.code).toBe('not_allowed_for_role');

    // The owner goes back to Free (the annual plan refunded now): both members are read-only.
    settings.once('dialog', (dialog) => void dialog.accept());
    await settings.reload({ waitUntil: 'networkidle' });
    await settings.getByRole('button', { name: /^Cancel now with a refund/ }).click();
    await planCard(settings).locator('[data-plan="free"]').waitFor({ timeout: 20_000 });
    // Identity applies the seats when it hears of the plan change: a page loaded after that
    // meets the gateway's refusal of the editor's token and comes back read-only.
    await expect
      .poll(
        async () => {
          await editing.goto('/my-products', { waitUntil: 'networkidle' });
          return editing.getByTestId('read-only-note').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    await expect
      .poll(() => editing.getByTestId('seller-identity').innerText())
      .toContain('accountant');
    // The accountant's reads stay (sales); products, theirs to write before, are not among
    // them: the page says so, and the server refuses a write.
    await editing.getByTestId('no-access').waitFor();
    await editing
      .getByRole('navigation', { name: 'Seller' })
      .getByRole('link', { name: 'Payments' })
      .click();
    await editing
      .getByRole('region', { name: 'Sales history' })
      .getByText(buyerEmail)
      .first()
      .waitFor();
    const write = await invitee.context.request.post('/api/discount-codes', {
      data: { code: 'READONLY10', kind: 'percent', percentOff: 10 },
    });
    expect(write.status()).toBe(403);
    expect((await write.json()).error.code).toBe('not_allowed_for_role');
    await expect
      .poll(
        async () => {
          await counting.reload({ waitUntil: 'networkidle' });
          return counting.getByTestId('read-only-note').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    await Promise.all([editing.close(), counting.close(), settings.close()]);
  }, 180_000);
});
