import { API_KEY_PATTERN } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { makeSessionStale } from './support/sessions';
import { expectToast } from './support/toasts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseUrl,
  });
});
afterAll(async () => {
  await browser?.close();
});

describe('/settings API keys', () => {
  it('creates a test key shown once with Copy, lists it, and revokes it after a confirmation', async () => {
    await signUpSeller(browser.context);
    const page = await browser.open('/settings');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByText('No API keys yet.').waitFor();
    // Live keys are Business's; a free seller is offered test keys only.
    expect(await section.getByLabel('Live').isDisabled()).toBe(true);

    await section.getByLabel('Key name').fill('Books sync');
    await section.getByRole('button', { name: 'Create key' }).click();
    await section.getByText('Choose at least one scope').waitFor();
    await section.getByLabel('sales:read').check();
    await section.getByLabel('products:write').check();
    await section.getByRole('button', { name: 'Create key' }).click();

    const secretField = section.getByLabel('New API key');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(secret.startsWith('ld_test_')).toBe(true);
    await section.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectToast(page, 'API key copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await section.getByRole('button', { name: 'Done' }).click();
    expect(await section.getByLabel('New API key').count()).toBe(0);

    const row = section.locator('li[data-api-key="Books sync"]');
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('Never used');
    expect(rowText).toContain(secret.slice(0, 12));
    expect(rowText).not.toContain(secret);
    expect(rowText).toContain('products:write, sales:read');

    // After a reload the secret is nowhere on the page.
    await page.reload({ waitUntil: 'networkidle' });
    await section.locator('li[data-api-key="Books sync"]').waitFor();
    expect(await page.content()).not.toContain(secret.slice(12));

    await section.getByRole('button', { name: 'Revoke Books sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Books sync?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await section.locator('li[data-api-key]').count()).toBe(1);
    await section.getByRole('button', { name: 'Revoke Books sync' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expectToast(page, 'API key revoked');
    await expect.poll(() => section.locator('li[data-api-key]').count()).toBe(0);
    await page.close();
  }, 90_000);

  it('asks a stale session for the password before it makes a key, then makes the key asked for', async () => {
    const account = await signUpSeller(browser.context);
    await makeSessionStale(browser.context, account.email);
    const page = await browser.open('/settings');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByLabel('Key name').fill('Stale sync');
    await section.getByLabel('sales:read').check();
    await section.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.getByText('To create an API key, confirm who you are.').waitFor();
    expect(await section.getByLabel('New API key').count()).toBe(0);
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    expect(await section.getByLabel('New API key').inputValue()).toMatch(API_KEY_PATTERN);
    await section.getByRole('button', { name: 'Done' }).click();
    expect(await section.locator('li[data-api-key="Stale sync"]').innerText()).toContain(
      'sales:read',
    );
    await page.close();
  }, 60_000);
});
