import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { shoot } from './support/screenshots';
import { launchBrowser, MOBILE, type Browser } from './support/browser';

// Screens of this journey are saved here when set (for looking at them, not for asserting).
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 160×120 RGB PNG with a sharp checkerboard, so blurring visibly changes its bytes. */
function checkerboardPng(width = 160, height = 120): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const on = (Math.floor(x / 10) + Math.floor(y / 10)) % 2 === 0;
      row.set(on ? [79, 70, 229] : [250, 250, 250], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let seller: Browser;
let visitor: Browser;
beforeAll(async () => {
  [seller, visitor] = await Promise.all([launchBrowser(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([seller?.close(), visitor?.close()]);
});

describe('a seller sells an image', () => {
  const image = checkerboardPng();
  const title = `Checkerboard poster ${Date.now().toString(36)}`;
  let productId = '';

  it('creates a product with an uploaded image and lands on the dashboard', async () => {
    const page = await seller.open('/');
    await signUpSeller(page);
    await page.goto('/my-products', { waitUntil: 'networkidle' });
    await page.getByText('No products yet').waitFor();
    await shoot(page, 'my-products-empty-1280', { mobile: false });
    await page.getByRole('link', { name: 'Create your first product' }).click();
    await page.waitForURL('**/create-product');
    await page.getByText('0 of 15 uploads used this month.').waitFor();
    const create = page.getByRole('button', { name: 'Create Product' });
    expect(await create.isDisabled()).toBe(true);

    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('A crisp checkerboard, printable at A2.');
    await page.getByLabel('Price').fill('12.50');
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: image });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    await page.getByLabel('Blur level').fill('60');
    await shoot(page, 'create-product-1280', { mobile: false });
    await page.setViewportSize(MOBILE);
    await shoot(page, 'create-product-375', { mobile: false });

    await create.click();
    await page.getByText('Product created successfully!').waitFor();
    await page.waitForURL('**/dashboard');
    await page.close();
  });

  it('lists it on /my-products as a draft and publishes it', async () => {
    const page = await seller.open('/my-products');
    const card = page.getByRole('article').filter({ hasText: title });
    await card.waitFor();
    expect(await card.getByText('Draft').isVisible()).toBe(true);
    expect(await card.getByText('$12.50').isVisible()).toBe(true);
    expect(await card.getByText('poster.png').isVisible()).toBe(true);
    const href = await card.getByRole('link', { name: `View ${title}` }).getAttribute('href');
    productId = href!.split('/').pop()!;

    await card.getByRole('button', { name: `Publish ${title}` }).click();
    await page.getByText('Product published successfully').waitFor();
    await card.getByText('Live').waitFor();
    await shoot(page, 'my-products-1280', { mobile: false });
    await page.setViewportSize(MOBILE);
    await shoot(page, 'my-products-375', { mobile: false });
    await page.close();
  });

  it('shows a signed-out visitor the blurred preview and the buy card, never the original', async () => {
    const page = await visitor.open(`/product/${productId}`);
    await page.getByRole('heading', { name: title }).waitFor();
    const preview = page.getByRole('img', { name: `Blurred preview of ${title}` });
    await preview.waitFor({ timeout: 20_000 });
    expect(await page.getByText('Preview with 60% blur').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy now for $12.50' }).isVisible()).toBe(true);
    expect(await page.getByText('This product is not published').count()).toBe(0);

    const src = await preview.getAttribute('src');
    const served = await visitor.context.request.get(src!);
    expect(served.status()).toBe(200);
    expect(sha256(await served.body())).not.toBe(sha256(image));
    await shoot(page, 'product-1280', { mobile: false });
    await page.setViewportSize(MOBILE);
    await shoot(page, 'product-375', { mobile: false });
    await page.close();
  });

  it('asks for an e-mail before checkout', async () => {
    const page = await visitor.open(`/product/${productId}`);
    await page.getByRole('button', { name: 'Buy now for $12.50' }).click();
    await page.getByText('Please enter your email').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/product/${productId}`);
    await page.close();
  });

  it('gives link previews their Open Graph and Twitter tags in the HTML the gateway returns', async () => {
    const response = await visitor.context.request.get(`/product/${productId}`);
    const html = await response.text();
    expect(html).toContain(`property="og:title" content="${title}`);
    expect(html).toMatch(/property="og:image" content="[^"]*\/api\/previews\//);
    expect(html).toContain('name="twitter:card"');
  });

  it("shows the price 'in' another currency at the published rate, with the 'Originally' line", async () => {
    const page = await visitor.open(`/product/${productId}`);
    await page.getByLabel('Show in').selectOption('EUR');
    // The worker publishes the shipped rates on a fresh install: 1 USD = 0.8652 EUR.
    await page.getByText('Originally $12.50', { exact: true }).waitFor();
    expect(
      await page
        .getByText(/10\.82/)
        .first()
        .isVisible(),
    ).toBe(true);
    expect(await page.getByText('No exchange rate from USD to EUR').count()).toBe(0);
    await page.close();
  });

  it("says 'Failed to load exchange rates' in a red box when the rates cannot be fetched", async () => {
    const rates = '**/api/exchange-rates*';
    await visitor.context.route(rates, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'service_unavailable', message: 'Unavailable' } }),
      }),
    );
    try {
      const page = await visitor.open(`/product/${productId}`);
      await page.getByLabel('Show in').selectOption('GBP');
      await page.getByRole('alert').filter({ hasText: 'Failed to load exchange rates' }).waitFor();
      // The price stays in the product's own currency rather than a made-up conversion.
      expect(await page.getByText('$12.50').first().isVisible()).toBe(true);
      await page.close();
    } finally {
      await visitor.context.unroute(rates);
    }
  });

  it('edits the blur level on the edit screen, and the public preview follows', async () => {
    const page = await seller.open('/my-products');
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await page.getByRole('heading', { name: 'Edit product' }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe(title);
    const files = page.getByRole('region', { name: 'Files' });
    expect(await files.getByText('poster.png', { exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Blur level').fill('80');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Product updated successfully').waitFor();
    await page.waitForURL('**/my-products');
    await page.close();

    const product = await visitor.open(`/product/${productId}`);
    // The server re-renders the preview at the new strength; on a busy machine that takes a while.
    await product.getByText('Preview with 80% blur').waitFor({ timeout: 30_000 });
    await product.close();
  }, 60_000);

  it("tells the owner a draft's checkout may be blocked; strangers get 'Product not found.'", async () => {
    const owner = await seller.open('/my-products');
    const card = owner.getByRole('article').filter({ hasText: title });
    await card.getByRole('button', { name: `Unpublish ${title}` }).click();
    await owner.getByText('Product unpublished successfully').waitFor();
    await owner.goto(`/product/${productId}`, { waitUntil: 'networkidle' });
    await owner.getByText('This product is not published; checkout may be blocked.').waitFor();
    await owner.close();

    const stranger = await visitor.open(`/product/${productId}`);
    await stranger.getByRole('heading', { name: 'Product not found.' }).waitFor();
    await stranger.close();
  });
});

describe('uploading on /create-product', () => {
  it("refuses a file over the plan's limit before sending it", async () => {
    const page = await seller.open('/create-product');
    let uploads = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/uploads')) uploads += 1;
    });
    const dir = await mkdtemp(join(tmpdir(), 'lockdrop-big-'));
    const big = join(dir, 'too-big.bin');
    await writeFile(big, Buffer.alloc(50 * 1024 * 1024 + 1));
    await page.getByLabel('Choose a file').setInputFiles(big);
    await page.getByText('File size must be less than 50MB').waitFor();
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0);
    expect(uploads).toBe(0);
    await rm(dir, { recursive: true, force: true });
    await page.close();
  });

  it('reports real progress from the upload and can cancel it', async () => {
    const page = await seller.open('/create-product');
    const cdp = await seller.context.newCDPSession(page);
    // ~256 KB/s: a 2 MB upload takes long enough to watch it move.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'slow.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(2 * 1024 * 1024, 7),
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Upload progress' });
    await page.waitForFunction(() => {
      const value = Number(
        document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow'),
      );
      return value > 0 && value < 100;
    });
    const midway = Number(await bar.getAttribute('aria-valuenow'));
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(100);
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await bar.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Create Product' }).isDisabled()).toBe(true);
    await cdp.detach();
    await page.close();
  });

  it("counts an upload on the dashboard's plan card without a reload (one query for usage)", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.open('/');
      await signUpSeller(page);
      await page.goto('/dashboard', { waitUntil: 'networkidle' });
      const usedThisMonth = page
        .getByRole('region', { name: 'Current plan' })
        .getByRole('definition')
        .nth(1);
      await expect.poll(() => usedThisMonth.innerText()).toBe('0');
      // Client-side from here on: the dashboard's answer stays in the app's cache.
      await page
        .getByRole('link', { name: /Create product/ })
        .first()
        .click();
      await page.waitForURL('**/create-product');
      await page
        .getByLabel('Choose a file')
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: checkerboardPng() });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByText('File uploaded successfully!').waitFor();
      await page.goBack();
      await page.waitForURL('**/dashboard');
      await expect.poll(() => usedThisMonth.innerText()).toBe('1');
    } finally {
      await browser.close();
    }
  });
});
