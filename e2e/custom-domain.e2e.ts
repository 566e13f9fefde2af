import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { startFakeDns, type FakeDns } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpSeller, waitForMail } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/**
 * Issue 28's "done means" for domains: a Business seller adds a domain in /settings, the (fake)
 * DNS verifies it, and a buyer on that host sees the seller's brand, pays in the sandbox, lands
 * back on that host and downloads the file. The stack's catalog asks the fake DNS server
 * (tools/e2e.mjs sets DNS_SERVERS to E2E_DNS_PORT); the buyer's browser resolves *.example.test
 * to this machine, as the seller's CNAME would send buyers to Lockdrop's edge.
 */
const EDGE_HOST = 'edge.lockdrop.test';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let dns: FakeDns;
let seller: Browser;
let buyer: Browser;

beforeAll(async () => {
  dns = await startFakeDns(Number(process.env.E2E_DNS_PORT));
  [seller, buyer] = await Promise.all([
    launchBrowser(),
    launchBrowser({ hostsAt127: ['*.example.test'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), dns?.close()]);
});

async function upgradeToBusiness() {
  const change = await seller.context.request.post(`${baseUrl}/api/billing/plan/change`, {
    data: { plan: 'business', interval: 'monthly' },
  });
  expect(change.status()).toBe(200);
  const billing = await seller.context.newPage();
  await billing.goto(((await change.json()) as { link: string }).link);
  await billing.getByRole('button', { name: /^Subscribe — / }).click();
  await billing.waitForURL('**/settings?plan_payment=1**');
  await expectToast(billing, 'You are now on the Business plan.');
  await billing.close();
}

describe('a Business seller’s custom domain', () => {
  it('is added and verified in settings; a buyer on it sees the brand, pays, comes back there and downloads', async () => {
    await signUpSeller(seller.context);
    await upgradeToBusiness();
    const page = await seller.open('/settings');
    const brand = page.getByRole('region', { name: 'Brand' });
    await brand.getByLabel('Store name').fill('Dawn Recordings');
    await brand.getByLabel('Store handle').fill(`dawn-${randomBytes(4).toString('hex')}`);
    await brand.getByLabel('Accent colour').fill('#0f766e');
    await brand.getByRole('button', { name: 'Save brand' }).click();
    await expectToast(page, 'Brand saved');

    const host = `shop-${randomBytes(4).toString('hex')}.example.test`;
    const domain = page.getByRole('region', { name: 'Custom domain' });
    await domain.getByLabel('Domain', { exact: true }).fill(`https://${host.toUpperCase()}/`);
    await domain.getByRole('button', { name: 'Add domain' }).click();
    await domain.getByTestId('domain-host').getByText(host, { exact: true }).waitFor();
    expect(await domain.getByTestId('domain-status').innerText()).toBe('Pending');
    const records = domain.getByRole('table');
    await records.getByRole('rowheader', { name: `_lockdrop.${host}` }).waitFor();
    const token = await records
      .getByRole('row')
      .filter({ hasText: 'TXT' })
      .locator('td')
      .last()
      .innerText();
    expect(token).toMatch(/^lockdrop-verify=[0-9a-f]{32}$/);
    expect(await records.getByRole('row').filter({ hasText: 'CNAME' }).innerText()).toContain(
      EDGE_HOST,
    );

    // Not there yet: "Verify now" says what is missing and the domain stays pending.
    await domain.getByRole('button', { name: 'Verify now' }).click();
    await domain.getByText(/TXT record was not found yet/).waitFor();
    expect(await domain.getByTestId('domain-status').innerText()).toBe('Pending');

    // The seller's DNS host publishes the records: a long TXT split in two, a CNAME chain.
    dns.set(`_lockdrop.${host}`, [
      { type: 'TXT', name: `_lockdrop.${host}`, strings: [token.slice(0, 20), token.slice(20)] },
    ]);
    dns.set(host, [{ type: 'CNAME', name: host, target: `cdn.${host}` }]);
    dns.set(`cdn.${host}`, [{ type: 'CNAME', name: `cdn.${host}`, target: EDGE_HOST }]);
    await domain.getByRole('button', { name: 'Verify now' }).click();
    await domain.getByText(/Both records are in place/).waitFor();
    expect(await domain.getByTestId('domain-status').innerText()).toBe('Verified');

    const file = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(32 * 1024)]);
    const title = `Dawn chorus ${Date.now().toString(36)}`;
    await publishProduct(seller.context, { bytes: file, title });

    // The buyer types the seller's address: the store, in the seller's brand.
    const site = `http://${host}:${new URL(baseUrl).port}`;
    const shop = await buyer.open(`${site}/`);
    await shop.getByTestId('brand-header').getByText('Dawn Recordings').waitFor();
    expect(await shop.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await shop.getByTestId('sold-with-lockdrop').getAttribute('href')).toBe(baseUrl);
    await shop.getByRole('link', { name: title }).click();
    await shop.waitForURL(`${site}/product/**`);
    // Loaded by its address, the product page names the seller's domain as canonical.
    await shop.reload({ waitUntil: 'networkidle' });
    expect(await shop.locator('link[rel="canonical"]').getAttribute('href')).toMatch(
      new RegExp(`^${site.replaceAll('.', '\\.')}/p/`),
    );

    // On Lockdrop's own address the page still answers, naming the domain as canonical.
    const productAddress = new URL(shop.url()).pathname;
    const ours = await buyer.open(`${baseUrl}${productAddress}`);
    expect(await ours.locator('link[rel="canonical"]').getAttribute('href')).toMatch(
      new RegExp(`^${site.replaceAll('.', '\\.')}/p/`),
    );
    await ours.close();

    const buyerEmail = newAccount('buyer').email;
    await shop.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await shop.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await shop.waitForURL('**/sandbox/checkout/**');
    await shop.getByRole('button', { name: 'Pay $7.00' }).click();
    // The provider sends the buyer back to the seller's domain, not to Lockdrop's.
    await shop.waitForURL(/\/payment\/success\?/);
    expect(new URL(shop.url()).origin).toBe(site);
    await shop.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    await shop.getByTestId('brand-header').getByText('Dawn Recordings').waitFor();

    const [download] = await Promise.all([
      shop.waitForEvent('download'),
      shop
        .getByRole('button', { name: /Download File/ })
        .first()
        .click(),
    ]);
    expect(download.url().startsWith(`${site}/`)).toBe(true);
    expect(sha256(await readFile(await download.path()))).toBe(sha256(file));

    // The receipt e-mail, in the seller's brand, leads back to the seller's domain.
    const receipt = await waitForMail(buyer.context, {
      to: buyerEmail,
      subject: `Your receipt for ${title}`,
    });
    expect(receipt.text).toContain('Dawn Recordings · Sold with Lockdrop');
    const receiptLink = receipt.links.find((link) => link.includes('/receipt/'));
    expect(receiptLink?.startsWith(`${site}/receipt/`)).toBe(true);
    const receiptPage = await buyer.open(receiptLink!);
    await receiptPage.getByRole('heading', { name: 'Your purchase' }).waitFor();
    await receiptPage.getByTestId('brand-header').getByText('Dawn Recordings').waitFor();
    // The tab names the seller too, never Lockdrop.
    await expect.poll(() => receiptPage.title()).toBe('Your receipt — Dawn Recordings');
    expect(new URL(receiptPage.url()).origin).toBe(site);
    await receiptPage.close();

    // The dashboard is not on the seller's domain: it sends the buyer to Lockdrop's own host.
    await shop.goto(`${site}/dashboard`);
    await shop.waitForURL(`${baseUrl}/**`);
  }, 180_000);
});
