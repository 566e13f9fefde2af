import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, signUpSeller, waitForMail } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';
import { upgradeToPro } from './support/plans';

/**
 * Issue 28's admin has everything but ownership and the payout destination: acting for the
 * store, Settings shows them its brand, custom domain, webhooks and API keys (not its payouts or plan), and a
 * key or endpoint they add is the store's — its owner sees it, and the activity names the admin.
 */
let owner: Browser;
let admin: Browser;

beforeAll(async () => {
  [owner, admin] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([owner?.close(), admin?.close()]);
});

describe('an admin acting for the store', () => {
  it("manages the store's API keys and webhooks from Settings; the owner sees what they made", async () => {
    await signUpSeller(owner.context, { verified: true, prefix: 'admin-owner' });
    const person = await signUpSeller(admin.context, { verified: true, prefix: 'admin' });

    // The plan card is the dashboard's; paying brings the owner back to /settings.
    const settings = await owner.open('/dashboard');
    await upgradeToPro(settings);
    const team = settings.getByRole('region', { name: 'Team' });
    await expect
      .poll(
        async () => {
          await settings.reload({ waitUntil: 'networkidle' });
          return team.getByText('0 of 3 seats used').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    await team.getByLabel('E-mail').fill(person.email);
    await team.getByLabel('Role').selectOption('admin');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(settings, `Invitation sent to ${person.email}`);
    const mail = await waitForMail(admin.context, { to: person.email, subject: 'invited you' });
    const link = new URL(linkIn(mail, '/invite?token='));
    const page = await admin.open(`${link.pathname}${link.search}`);
    await page.getByText(/You joined .+ as admin\./).waitFor();
    await page.getByTestId('open-store').click();
    await page.waitForURL('**/dashboard');

    // The store's brand, domain, webhooks and API keys; never its payouts or plan.
    await page.goto('/settings', { waitUntil: 'networkidle' });
    expect(await page.getByTestId('acting-note').innerText()).toContain(
      'brand, domain, webhooks and API keys are yours to manage here',
    );
    for (const name of ['Brand', 'Custom domain', 'Webhooks', 'API keys'])
      await page.getByRole('region', { name, exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Current plan' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: /payout/i }).count()).toBe(0);

    // A key, made in the form as the owner would.
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByLabel('Key name').fill('Admin sync');
    await keys.getByLabel('products:read').check();
    await keys.getByRole('button', { name: 'Create key' }).click();
    const secret = await keys.getByLabel('New API key').inputValue();
    expect(secret.startsWith('ld_test_')).toBe(true);
    await keys.getByRole('button', { name: 'Done' }).click();
    await keys.locator('li[data-api-key="Admin sync"]').waitFor();

    // An endpoint, added in the webhooks form.
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByLabel('Endpoint URL').fill('https://hooks.example.com/admin');
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    await expectToast(page, 'Endpoint added');

    // The owner, on the account the store is, sees both and who made them.
    await settings.reload({ waitUntil: 'networkidle' });
    await settings
      .getByRole('region', { name: 'API keys' })
      .locator('li[data-api-key="Admin sync"]')
      .waitFor();
    await settings
      .getByRole('region', { name: 'Webhooks' })
      .locator('li[data-endpoint="https://hooks.example.com/admin"]')
      .waitFor();
    const activity = settings.getByRole('list', { name: 'Activity' });
    await activity
      .locator('li[data-action="api_key.created"]')
      .filter({ hasText: person.email })
      .filter({ hasText: 'created the API key Admin sync' })
      .waitFor();
    await expect
      .poll(
        async () => {
          await settings.reload({ waitUntil: 'networkidle' });
          return activity
            .locator('li[data-action="webhook_endpoint.created"]')
            .filter({ hasText: 'https://hooks.example.com/admin' })
            .count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    await Promise.all([page.close(), settings.close()]);
  }, 120_000);
});
