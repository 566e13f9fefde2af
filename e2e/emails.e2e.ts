import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, readMailbox, signUpSeller, waitForMail } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { payInSandbox } from './support/checkout';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/*
 * Issue 29, item 6: the e-mails people expect — "You made a sale" to the seller (a setting turns
 * it off), the refund e-mail to the buyer. Payout sent / failed are in payouts.e2e.ts.
 */

let seller: Browser;
let buyer: Browser;
// A browser that paid sees the product unlocked, not the purchase card: each buyer has their own.
let secondBuyer: Browser;
beforeAll(async () => {
  [seller, buyer, secondBuyer] = await Promise.all([
    launchBrowser(),
    launchBrowser(),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), secondBuyer?.close()]);
});

const zip = () => Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(2048)]);

/** A buyer pays for product `id` through the product page and the sandbox; returns their e-mail. */
async function buyOnce(id: string, browser: Browser): Promise<string> {
  const buyerEmail = newAccount('buyer').email;
  const page = await browser.open(`/product/${id}`);
  await page.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
  await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
  await payInSandbox(page, '$7.00');
  await page.close();
  return buyerEmail;
}

describe('e-mails after a sale', () => {
  it('the seller gets "You made a sale" until they turn it off in Settings; a refunded buyer is told', async () => {
    const account = await signUpSeller(seller.context);
    const title = `Mail pack ${Date.now().toString(36)}`;
    const id = await publishProduct(seller.context, { bytes: zip(), title });

    const firstBuyer = await buyOnce(id, buyer);
    const sale = await waitForMail(seller.context, {
      to: account.email,
      subject: `You made a sale: ${title}`,
    });
    expect(sale.text).toContain(`${firstBuyer} bought "${title}" for $7.00.`);
    // The e2e stack takes sandbox payments: the seller is told it earned nothing real.
    expect(sale.subject).toBe(`[TEST] You made a sale: ${title}`);
    expect(sale.text).toContain('not part of your earnings or payouts');

    const settings = await seller.open('/settings#notifications');
    const toggle = settings.getByRole('checkbox', { name: /E-mail me when I make a sale/ });
    await expect.poll(() => toggle.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await toggle.isChecked()).toBe(true);
    // A click, not uncheck(): the box is the stored setting and follows the click a render
    // later (the mutation's optimistic update), which uncheck() reading it back at once can miss
    // on a loaded machine. The toast and the reload below check what was saved.
    await toggle.click();
    await expectToast(settings, 'Sale e-mails turned off');
    await settings.reload();
    await expect.poll(() => toggle.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await settings.close();

    const secondBuyerEmail = await buyOnce(id, secondBuyer);
    // The receipt and a sale e-mail would be queued in the same transaction: once the receipt is
    // in the mailbox, a sale e-mail would be too.
    await waitForMail(buyer.context, {
      to: secondBuyerEmail,
      subject: `Your receipt for ${title}`,
    });
    const saleMails = (await readMailbox(seller.context)).filter(
      (mail) => mail.to === account.email && mail.subject.includes('You made a sale'),
    );
    expect(saleMails).toHaveLength(1);

    // The seller refunds the first sale; its buyer gets the refund e-mail.
    const sales = (await (
      await seller.context.request.get(`${baseUrl}/api/purchases/sales`)
    ).json()) as { sales: { id: string; buyerEmail: string }[] };
    const first = sales.sales.find((s) => s.buyerEmail === firstBuyer)!;
    const refunded = await seller.context.request.post(
      `${baseUrl}/api/purchases/${first.id}/refund`,
    );
    expect(refunded.ok()).toBe(true);
    const refundMail = await waitForMail(buyer.context, {
      to: firstBuyer,
      subject: `Your refund for ${title}`,
    });
    expect(refundMail.text).toContain('Your access to the files of this purchase has ended.');
  }, 90_000);
});
