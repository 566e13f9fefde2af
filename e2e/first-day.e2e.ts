import { randomBytes } from 'node:crypto';
import { productPath } from '@lockdrop/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, waitForMail } from './support/accounts';
import { baseUrl, DESKTOP, launchBrowser, MOBILE, type Browser } from './support/browser';
import { payInSandbox } from './support/checkout';
import { publishProduct } from './support/products';
import { expectToast } from './support/toasts';

/*
 * Issue 29, "A seller's first day": what a new seller and their first buyers see, in the order
 * they meet it.
 */

let seller: Browser;
let buyer: Browser;
beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  await seller.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseUrl,
  });
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close()]);
});

const zip = () => Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(2048)]);
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Clicks `button` and waits for the clipboard to hold `expected`. */
async function expectCopied(page: Page, click: () => Promise<void>, expected: string) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await click();
  await expectToast(page, 'Link copied');
  expect(await clipboard(page)).toBe(expected);
}

describe('sharing the link', () => {
  it('Publish now on the create form leads to "Your link is live" with copy, share and QR', async () => {
    await signUpSeller(seller.context);
    const title = `Ebook ${Date.now().toString(36)}`;
    const page = await seller.open('/create-product');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Price').fill('9');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'ebook.zip', mimeType: 'application/zip', buffer: zip() });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    await page.getByLabel(/Publish now/).check();
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expectToast(page, 'Product created successfully!');
    await page.waitForURL('**/dashboard');

    const live = page.getByRole('region', { name: 'Your link is live' });
    await live.waitFor();
    const url = await live.getByLabel('Product link').inputValue();
    // The readable address (issue 29): the title's slug and the product's short id.
    expect(url).toMatch(new RegExp(`^${baseUrl}/p/ebook-[a-z0-9]+-[0-9A-Za-z]{11}$`));
    await expectCopied(page, () => live.getByRole('button', { name: 'Copy link' }).click(), url);
    const encoded = encodeURIComponent(url);
    expect(await live.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toBe(
      `https://wa.me/?text=${encodeURIComponent(`${title} — ${url}`)}`,
    );
    expect(await live.getByRole('link', { name: 'Share on X' }).getAttribute('href')).toContain(
      `url=${encoded}`,
    );
    expect(await live.getByRole('link', { name: 'Share on Facebook' }).getAttribute('href')).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${encoded}`,
    );
    const qr = live.getByRole('img', { name: `QR code for ${url}` });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);

    // The product is live: a visitor can buy it at that link.
    const visitor = await buyer.open(new URL(url).pathname);
    await visitor.getByRole('button', { name: 'Buy now for $9.00' }).waitFor();
    expect(await visitor.getByText('This product is not published').count()).toBe(0);

    // Copy link on the dashboard's row, My products' card and the owner's product view.
    await page.reload({ waitUntil: 'networkidle' });
    await expectCopied(
      page,
      () =>
        page
          .getByRole('region', { name: 'Recent Products' })
          .getByRole('button', { name: `Copy link to ${title}` })
          .click(),
      url,
    );
    await page.goto('/my-products', { waitUntil: 'networkidle' });
    await expectCopied(
      page,
      () => page.getByRole('button', { name: `Copy link to ${title}` }).click(),
      url,
    );
    await page.goto(new URL(url).pathname, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Edit product' }).waitFor();
    await expectCopied(page, () => page.getByRole('button', { name: 'Copy link' }).click(), url);
    await Promise.all([page.close(), visitor.close()]);
  }, 60_000);

  it('publishing a draft on My products shows its link to share, on a phone too', async () => {
    await signUpSeller(seller.context);
    const title = `Draft pack ${Date.now().toString(36)}`;
    const upload = await seller.context.request.post(`${baseUrl}/api/uploads`, {
      multipart: { file: { name: 'pack.zip', mimeType: 'application/zip', buffer: zip() } },
    });
    const { id: fileId } = (await upload.json()) as { id: string };
    const created = await seller.context.request.post(`${baseUrl}/api/products`, {
      data: { title, price: '5', currency: 'USD', fileId, previewEnabled: false },
    });
    const { id } = (await created.json()) as { id: string };
    const page = await seller.open('/my-products', MOBILE);
    await page.getByRole('button', { name: `Publish ${title}` }).click();
    const live = page.getByRole('region', { name: 'Your link is live' });
    await live.waitFor();
    const url = `${baseUrl}${productPath({ id, title })}`;
    expect(await live.getByLabel('Product link').inputValue()).toBe(url);
    await live.getByRole('img', { name: `QR code for ${url}` }).waitFor();
    expect(await live.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(true);
    await page.close();
  });
});

describe('onboarding step 3', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', MOBILE],
  ] as const) {
    it(`opens "Create your first product" without an error (${name})`, async () => {
      await signUpSeller(seller.context);
      const page = await seller.open('/onboarding', viewport);
      await page.getByText('Creator', { exact: true }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('radio', { name: /Payoneer/ }).check();
      await page.getByLabel('Payoneer e-mail', { exact: true }).fill('ada@payoneer.example.com');
      await page.getByRole('button', { name: 'Save payout details' }).click();
      await page.getByTestId('payout-destination').waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Create your first product' }).waitFor();
      // A later toast: were the empty form submitted by that click, its error would show first.
      await page
        .getByLabel('Choose a file')
        .setInputFiles({ name: 'first.zip', mimeType: 'application/zip', buffer: zip() });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await expectToast(page, 'File uploaded successfully!');
      expect(
        await page
          .locator('[data-sonner-toast]', { hasText: 'Please fill in all required fields' })
          .count(),
      ).toBe(0);
      expect(await page.getByLabel('Name').inputValue()).toBe('');
      await page.close();
    });
  }
});

describe('checkout e-mail', () => {
  it('says under the field what is wrong with a mistyped e-mail, and keeps the toast for an empty one', async () => {
    await signUpSeller(seller.context);
    const id = await publishProduct(seller.context, { bytes: zip(), title: 'Typo check' });
    const page = await buyer.open(`/product/${id}`);
    const email = page.getByLabel('E-mail', { exact: true });
    await email.fill('bad@@email');
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await page
      .getByText('This is not a valid e-mail address — check it reads like you@example.com')
      .waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/product/${id}`);

    await email.fill('');
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await expectToast(page, 'Please enter your email');
    expect(await page.locator('[data-sonner-toast]').allInnerTexts()).not.toContainEqual(
      expect.stringContaining('valid e-mail'),
    );
    await page.close();
  });
});

describe('a payment that did not go through', () => {
  for (const [outcome, heading] of [
    ['Fail', 'Payment failed'],
    ['Cancel', 'Payment canceled'],
  ] as const) {
    it(`offers "Try again" back to the product with the e-mail kept (${outcome})`, async () => {
      await signUpSeller(seller.context);
      const id = await publishProduct(seller.context, { bytes: zip(), title: `Retry ${outcome}` });
      const page = await buyer.open(`/product/${id}`);
      const address = `retry-${Date.now().toString(36)}@example.com`;
      await page.getByLabel('E-mail', { exact: true }).fill(address);
      await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
      await page.waitForURL('**/sandbox/checkout/**');
      await page.getByRole('button', { name: outcome, exact: true }).click();
      await page.getByRole('heading', { name: heading }).waitFor({ timeout: 20_000 });
      expect(await page.getByRole('main').getByRole('link', { name: /Home/ }).isVisible()).toBe(
        true,
      );
      await page.getByRole('link', { name: 'Try again' }).click();
      await page.waitForURL(`**/product/${id}*`);
      await page.getByRole('button', { name: 'Buy now for $7.00' }).waitFor();
      expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(address);
      await page.close();
    }, 60_000);
  }
});

describe('copy for buyers and new sellers', () => {
  it('asks a buyer sent from /purchases to sign in for their purchases, not payouts', async () => {
    await buyer.context.clearCookies();
    const page = await buyer.open('/purchases');
    await page.waitForURL('**/login?redirectTo=%2Fpurchases');
    await page.getByText('Sign in to see your purchases and download your files.').waitFor();
    expect(await page.getByText('Sign in to manage your products, sales and payouts').count()).toBe(
      0,
    );
    await page.close();
  });
});

/** "$6.30" → 630, "-$0.20" → -20. */
const minorOf = (text: string) => (text.includes('-') ? -1 : 1) * Number(text.replace(/\D/g, ''));

async function balanceTotal(page: Page): Promise<number> {
  const pending = await page.getByTestId('balance-USD-pending').innerText();
  const available = await page.getByTestId('balance-USD-available').innerText();
  return minorOf(pending) + minorOf(available);
}

describe('Payments: sales history and refunds', () => {
  it('shows every figure and Refund at 1280 px and as cards on a phone; the refund is confirmed in a dialog that says its cost, then balances and sales refresh', async () => {
    await signUpSeller(seller.context);
    const title = `Refundable ${Date.now().toString(36)}`;
    const id = await publishProduct(seller.context, { bytes: zip(), title });
    const shopper = await buyer.open(`/product/${id}`);
    await shopper
      .getByLabel('E-mail', { exact: true })
      .fill(`a-rather-long-buyer-address-${Date.now().toString(36)}@example.com`);
    await shopper.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await payInSandbox(shopper, '$7.00');
    await shopper.close();

    const page = await seller.open('/dashboard/payments', DESKTOP);
    const history = page.getByRole('region', { name: 'Sales history' });
    const row = history.locator('tr', { hasText: title });
    await row.waitFor();
    // Nothing of the sale hides in a sideways scroll: the table fits the space it is given.
    const table = history.getByRole('table');
    expect(
      await table.evaluate((element) => {
        const frame = element.parentElement!;
        return frame.scrollWidth - frame.clientWidth;
      }),
    ).toBeLessThanOrEqual(0);
    const panel = (await history.boundingBox())!;
    for (const header of ['Amount', 'Earnings', 'Status', 'Fees']) {
      const box = (await history.getByRole('columnheader', { name: header }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    }
    const refundButton = row.getByRole('button', { name: /^Refund/ });
    const button = (await refundButton.boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(Math.min(panel.x + panel.width, 1280));
    const earnings = await row.getByRole('cell').nth(4).innerText();
    const processorFee = /Processor (\S+)/.exec(
      await row.getByRole('cell').nth(3).innerText(),
    )![1]!;

    await page.setViewportSize(MOBILE);
    const card = history.getByRole('article', { name: new RegExp(title) });
    await card.waitFor();
    for (const label of ['Buyer', 'Amount', 'Platform fee', 'Processor fee', 'Earnings']) {
      expect(await card.getByText(label, { exact: true }).isVisible()).toBe(true);
    }
    expect(await card.getByText(earnings, { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('Paid', { exact: true }).isVisible()).toBe(true);
    const cardRefund = card.getByRole('button', { name: /^Refund/ });
    await cardRefund.scrollIntoViewIfNeeded();
    const mobileButton = (await cardRefund.boundingBox())!;
    expect(mobileButton.x + mobileButton.width).toBeLessThanOrEqual(MOBILE.width);

    // The balances must show the sale before the refund can be seen to take it back.
    await expect
      .poll(async () => {
        await page.reload({ waitUntil: 'networkidle' });
        return balanceTotal(page);
      })
      .toBe(minorOf(earnings));
    const cost = minorOf(earnings) + minorOf(processorFee);
    await card.getByRole('button', { name: /^Refund/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund this sale?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      `the ${earnings} you earned and the ${processorFee} processor fee, which the payment provider does not return`,
    );
    expect(await dialog.innerText()).toContain(`It costs you $${(cost / 100).toFixed(2)}`);
    await dialog.getByRole('button', { name: 'Confirm refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText(/Refunded|Refunding/).waitFor();
    await expect.poll(() => balanceTotal(page)).toBe(minorOf(earnings) - cost);
    await page.close();
  }, 90_000);
});

describe('a buyer who paid', () => {
  it('sees the content unlocked with Download File, not the blurred, locked preview', async () => {
    await signUpSeller(seller.context);
    const title = `Unlocked ${Date.now().toString(36)}`;
    const upload = await seller.context.request.post(`${baseUrl}/api/uploads`, {
      multipart: { file: { name: 'notes.zip', mimeType: 'application/zip', buffer: zip() } },
    });
    const { id: fileId } = (await upload.json()) as { id: string };
    const created = await seller.context.request.post(`${baseUrl}/api/products`, {
      data: { title, price: '7.00', currency: 'USD', fileId, previewEnabled: true },
    });
    const { id } = (await created.json()) as { id: string };
    await seller.context.request.post(`${baseUrl}/api/products/${id}/status`, {
      data: { status: 'published' },
    });

    const page = await buyer.open(`/product/${id}`);
    await page.getByRole('button', { name: 'Buy now for $7.00' }).waitFor();
    expect(await page.getByText('Full access unlocked').count()).toBe(0);
    await page
      .getByLabel('E-mail', { exact: true })
      .fill(`paid-${Date.now().toString(36)}@example.com`);
    await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
    await payInSandbox(page, '$7.00');

    await page.goto(`/product/${id}`, { waitUntil: 'networkidle' });
    await page.getByText('You have full access to this product').waitFor();
    await page.getByText('Full access unlocked').waitFor();
    expect(await page.getByRole('button', { name: /Download File/ }).count()).toBe(1);
    expect(await page.getByText(/Preview with \d+% blur/).count()).toBe(0);
    expect(await page.getByText('Preview not available').count()).toBe(0);
    expect(await page.getByRole('img', { name: `Blurred preview of ${title}` }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download File/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.zip');
    await page.close();
  }, 60_000);
});

describe('seller navigation', () => {
  it('one seller shell: Products in the side menu around My products, create and edit; Settings is the settings page', async () => {
    await signUpSeller(seller.context);
    const title = `Menu check ${Date.now().toString(36)}`;
    const id = await publishProduct(seller.context, { bytes: zip(), title });
    const page = await seller.open('/dashboard');
    const menu = page.getByRole('navigation', { name: 'Seller' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual([
      'Dashboard',
      'Products',
      'Deliveries',
      'Payments',
      'Analytics',
      'Discounts',
      'Settings',
    ]);
    expect(await menu.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
      '/settings',
    );
    await menu.getByRole('link', { name: 'Products' }).click();
    await page.waitForURL('**/my-products');
    await page.getByRole('heading', { name: 'My products', level: 1 }).waitFor();
    expect(await menu.getByRole('link', { name: 'Products' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await page.waitForURL(`**/my-products/${id}/edit`);
    await page.getByRole('heading', { name: 'Edit product', level: 1 }).waitFor();
    expect(await menu.isVisible()).toBe(true);
    await page.goto('/create-product', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Create product', level: 1 }).waitFor();
    expect(await menu.isVisible()).toBe(true);
    await page.goto('/dashboard/settings', { waitUntil: 'networkidle' });
    // The app's router redirects once it has rendered, which the network going quiet does not
    // wait for (a CI run read the old address).
    await page.waitForURL((url) => url.pathname === '/settings');
    expect(new URL(page.url()).pathname).toBe('/settings');
    await page.close();

    const phone = await seller.open('/my-products', MOBILE);
    const phoneMenu = phone.getByRole('navigation', { name: 'Seller' });
    expect(await phoneMenu.isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Seller menu' }).click();
    await phoneMenu.getByRole('link', { name: 'Products' }).waitFor();
    await phone.close();
  });
});

describe('form errors', () => {
  const errorToasts = (page: Page) => page.locator('[data-sonner-toast][data-type="error"]');

  it('Create product marks the field, moves focus to it, and keeps one error toast clear of the header', async () => {
    await signUpSeller(seller.context);
    const page = await seller.open('/create-product');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'a.zip', mimeType: 'application/zip', buffer: zip() });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expectToast(page, 'Please fill in all required fields');
    const title = page.getByLabel('Title');
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await title.evaluate((input) => input === document.activeElement)).toBe(true);
    const titleError = await title.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${titleError}"]`).innerText()).toBe(
      'Please fill in all required fields',
    );

    await title.fill('Preset pack');
    expect(await title.getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('Price').fill('0');
    await page.getByRole('button', { name: 'Create Product' }).click();
    await expectToast(page, 'Price must be a number of at least 0.01');
    const price = page.getByLabel('Price');
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    expect(await price.evaluate((input) => input === document.activeElement)).toBe(true);
    // The stale 'fill in all required fields' toast is gone, not waiting behind the new one.
    expect(await errorToasts(page).allInnerTexts()).toEqual([
      expect.stringContaining('Price must be a number of at least 0.01'),
    ]);
    const header = (await page.getByRole('banner').boundingBox())!;
    const toast = (await errorToasts(page).first().boundingBox())!;
    expect(toast.y).toBeGreaterThanOrEqual(header.y + header.height);
    await page.close();
  });

  it('New discount code says what is wrong under the field and moves focus there, without a toast', async () => {
    await signUpSeller(seller.context);
    const page = await seller.open('/dashboard/discounts');
    await page.getByRole('button', { name: 'Create your first code' }).click();
    const form = page.getByRole('region', { name: 'New discount code' });
    const code = form.getByLabel('Code', { exact: true });
    await code.fill('x');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('A code is 3 to 32 letters, digits, - or _').waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await code.evaluate((input) => input === document.activeElement)).toBe(true);

    await code.fill('SPRING');
    await form.getByLabel('Percentage off').fill('150');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('The percentage off must be a whole number from 1 to 100').waitFor();
    const percent = form.getByLabel('Percentage off');
    expect(await percent.getAttribute('aria-invalid')).toBe('true');
    expect(await percent.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await code.getAttribute('aria-invalid')).toBeNull();
    expect(await errorToasts(page).count()).toBe(0);
    await page.close();
  });
});

describe('a product of several files', () => {
  it('asks to unlock "these 3 files", and a one-file product "this file"', async () => {
    await signUpSeller(seller.context);
    const id = await publishProduct(seller.context, { bytes: zip(), title: 'Three files' });
    const single = await buyer.open(`/product/${id}`);
    await single.getByRole('heading', { name: 'Unlock this file' }).waitFor();
    await single.close();

    const fileIds: string[] = [];
    for (const name of ['two.zip', 'three.zip']) {
      const upload = await seller.context.request.post(`${baseUrl}/api/uploads`, {
        multipart: { file: { name, mimeType: 'application/zip', buffer: zip() } },
      });
      fileIds.push(((await upload.json()) as { id: string }).id);
    }
    const product = (await (
      await seller.context.request.get(`${baseUrl}/api/products/${id}`)
    ).json()) as { files: { fileId: string }[] };
    const patched = await seller.context.request.patch(`${baseUrl}/api/products/${id}`, {
      data: {
        files: [
          ...product.files.map(({ fileId }) => ({ fileId })),
          ...fileIds.map((fileId) => ({ fileId })),
        ],
      },
    });
    expect(patched.ok()).toBe(true);
    const page = await buyer.open(`/product/${id}`);
    await page.getByRole('heading', { name: 'Unlock these 3 files' }).waitFor();
    expect(await page.getByText('Unlock this file').count()).toBe(0);
    await page.close();
  });
});

describe('test mode, as a buyer meets it', () => {
  it('marks a sandbox payment as a test on the product page, the success page, the receipt e-mail and /purchases', async () => {
    await signUpSeller(seller.context);
    const title = `Test-mode notes ${Date.now().toString(36)}`;
    const id = await publishProduct(seller.context, { bytes: zip(), title });
    const shopper = await launchBrowser();
    try {
      const account = await signUpSeller(shopper.context, { verified: true, prefix: 'buyer' });
      const page = await shopper.open(`/product/${id}`);
      await page.getByRole('button', { name: 'Buy now for $7.00' }).waitFor();
      // The e2e stack takes sandbox payments: nobody may take the demo for a real charge.
      expect(await page.getByTestId('test-mode-notice').innerText()).toBe(
        'Test payment — no real money moves.',
      );
      await page.getByLabel('E-mail', { exact: true }).fill(account.email);
      await page.getByRole('button', { name: 'Buy now for $7.00' }).click();
      await payInSandbox(page, '$7.00');
      expect(await page.getByTestId('test-mode-notice').innerText()).toBe(
        'Test payment — no real money moves.',
      );

      const receipt = await waitForMail(shopper.context, {
        to: account.email,
        subject: `Your receipt for ${title}`,
      });
      expect(receipt.subject).toBe(`[TEST] Your receipt for ${title}`);
      expect(receipt.text).toContain(
        'This was a test payment: no money was charged, and the seller earned nothing from it.',
      );

      await page.goto('/purchases', { waitUntil: 'networkidle' });
      const entry = page.getByRole('listitem').filter({ hasText: title });
      await entry.getByText('Test payment', { exact: true }).waitFor();
      await page.close();
    } finally {
      await shopper.close();
    }
  }, 60_000);
});
