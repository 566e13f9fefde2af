import { randomBytes } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '@lockdrop/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { payInSandbox } from './support/checkout';
import { publishProduct } from './support/products';
import { makeSessionStale } from './support/sessions';
import { expectToast } from './support/toasts';

let seller: Browser;
let buyer: Browser;
let receiver: WebhookReceiver;
const file = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(16 * 1024)]);
const title = `Webhook presets ${Date.now().toString(36)}`;
let productId = '';
let account: Awaited<ReturnType<typeof signUpSeller>>;

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  receiver = await startWebhookReceiver();
  account = await signUpSeller(seller.context);
  productId = await publishProduct(seller.context, { bytes: file, title, price: '7.00' });
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), receiver?.close()]);
});

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhooks in /settings', () => {
  it('a seller adds an endpoint, a sale arrives signed, shows in the log, and is redelivered', async () => {
    const page = await seller.open('/settings');
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByLabel('Endpoint URL').fill(receiver.url);
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    await expectToast(page, 'Endpoint added');
    // The secret shows once, where the endpoint was added; the list holds none until asked.
    const created = webhooks.locator(`[data-created-endpoint="${receiver.url}"]`);
    const secret = (await created.getByLabel('Signing secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = webhooks.locator(`li[data-endpoint="${receiver.url}"]`);
    // This deployment sells in the sandbox: the form chose test payments for it.
    await endpoint.getByText('Test mode').waitFor();
    expect(await endpoint.getByLabel('Signing secret').count()).toBe(0);
    await endpoint.getByRole('button', { name: 'Reveal secret' }).click();
    expect((await endpoint.getByLabel('Signing secret').innerText()).trim()).toBe(secret);

    const shop = await buyer.open(`/product/${productId}`);
    await shop.getByLabel('E-mail', { exact: true }).fill(`hook-buyer-${Date.now()}@example.com`);
    await shop.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await payInSandbox(shop, '$7.00');

    await until(() => receiver.processed.length === 1, 'sale.created delivery');
    const [delivery] = receiver.processed;
    const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers) as {
      type: string;
      data: { productId: string; status: string };
    };
    expect(payload).toMatchObject({
      type: 'sale.created',
      data: { productId: productId, status: 'paid' },
    });

    await page.reload();
    const row = page.locator(`tr[data-delivery="${delivery!.id}"]`);
    await row.getByText('succeeded').waitFor();
    await row.getByRole('button', { name: /^Redeliver/ }).click();
    await expectToast(page, 'Redelivery queued');
    await until(() => receiver.requests.length === 2, 'redelivery');
    expect(receiver.requests[1]!.id).toBe(delivery!.id);
    new Webhook(secret).verify(receiver.requests[1]!.body, receiver.requests[1]!.headers);
  }, 120_000);

  it('shows a secret to a stale session only after the password, in a dialog', async () => {
    const page = await seller.open('/settings');
    const endpoint = page.locator(`li[data-endpoint="${receiver.url}"]`);
    await endpoint.getByRole('button', { name: 'Reveal secret' }).waitFor();
    await makeSessionStale(seller.context, account.email);
    await page.reload();
    await endpoint.getByRole('button', { name: 'Reveal secret' }).click();
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.getByText("To see this endpoint's secret, confirm who you are.").waitFor();
    expect(await endpoint.getByLabel('Signing secret').count()).toBe(0);
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await endpoint.getByLabel('Signing secret').innerText()).trim()).toMatch(/^whsec_/);
  }, 60_000);
});
