import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { baseUrl, DESKTOP, launchBrowser, MOBILE, type Browser } from './support/browser';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    // Toasts belong to the shared toaster and are caught mid-animation; they are checked elsewhere.
    const context = { exclude: [['[data-sonner-toaster]']] };
    return (await axe.run(context, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
}

async function publishedProduct(context: BrowserContext): Promise<string> {
  const upload = await context.request.post(`${baseUrl}/api/uploads`, {
    multipart: { file: { name: 'notes.txt', mimeType: 'text/plain', buffer: randomBytes(2048) } },
  });
  const { id: fileId } = (await upload.json()) as { id: string };
  const created = await context.request.post(`${baseUrl}/api/products`, {
    data: { title: 'Accessible notes', price: '3.00', fileId, previewEnabled: false },
  });
  const { id } = (await created.json()) as { id: string };
  await context.request.post(`${baseUrl}/api/products/${id}/status`, {
    data: { status: 'published' },
  });
  return id;
}

let seller: Browser;
let productId = '';
beforeAll(async () => {
  seller = await launchBrowser();
  await signUpSeller(seller.context);
  productId = await publishedProduct(seller.context);
});
afterAll(async () => {
  await seller?.close();
});

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
])('axe-core on the product and purchase screens at %s width', (_name, viewport) => {
  const screens = () => [
    ['/create-product', 'Create Product'],
    ['/my-products', 'My products'],
    [`/my-products/${productId}/edit`, 'Save changes'],
    [`/product/${productId}`, 'Accessible notes'],
    ['/purchases', 'Your Purchases'],
    ['/payment/success?status=successful&tx_ref=unknown', 'Purchase not found'],
    ['/payment/cancel', 'Payment canceled'],
  ];

  it('has no serious or critical violations on any screen', async () => {
    for (const [path, landmark] of screens()) {
      const page = await seller.open(path!, viewport);
      await page.getByText(landmark!).first().waitFor();
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
      await page.close();
    }
  }, 90_000);
});
