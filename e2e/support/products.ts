import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { BillingInterval } from '@lockdrop/contracts';
import { baseUrl } from './browser';

/** A published product with a file of `bytes`, made through the API as its signed-in seller would. */
export async function publishProduct(
  context: BrowserContext,
  {
    bytes,
    title,
    price = '7.00',
    currency = 'USD',
    fileName = 'field-notes.zip',
    mimeType = 'application/zip',
    description = 'Ten pages of field notes.',
    pricing = { type: 'one_time' },
    stampPdfs = false,
  }: {
    bytes: Buffer;
    title: string;
    price?: string;
    currency?: string;
    fileName?: string;
    mimeType?: string;
    description?: string;
    pricing?: { type: 'one_time' } | { type: 'recurring'; interval: BillingInterval };
    stampPdfs?: boolean;
  },
): Promise<string> {
  const upload = await context.request.post(`${baseUrl}/api/uploads`, {
    multipart: { file: { name: fileName, mimeType, buffer: bytes } },
  });
  expect(upload.status()).toBe(201);
  const { id: fileId } = (await upload.json()) as { id: string };
  const created = await context.request.post(`${baseUrl}/api/products`, {
    data: {
      title,
      description,
      price,
      currency,
      fileId,
      previewEnabled: false,
      pricing,
      stampPdfs,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const published = await context.request.post(`${baseUrl}/api/products/${id}/status`, {
    data: { status: 'published' },
  });
  expect(published.ok()).toBe(true);
  return id;
}

/** Publishes `title` from its card on /my-products, as the seller clicks it; returns its id. */
export async function publishFromMyProducts(
  page: Page,
  card: Locator,
  title: string,
): Promise<string> {
  await card.getByRole('button', { name: `Publish ${title}` }).click();
  await page.getByText('Product published successfully').waitFor();
  const href = await card.getByRole('link', { name: `View ${title}` }).getAttribute('href');
  return href!.split('/').pop()!;
}

/**
 * After Create Product was clicked on /create-product: waits for its toast and /dashboard, then
 * publishes the product from its /my-products card; returns its id.
 */
export async function publishCreatedProduct(page: Page, title: string): Promise<string> {
  await page.getByText('Product created successfully!').waitFor();
  await page.waitForURL('**/dashboard');
  await page.goto('/my-products', { waitUntil: 'networkidle' });
  const card = page.getByRole('article').filter({ hasText: title });
  return publishFromMyProducts(page, card, title);
}
