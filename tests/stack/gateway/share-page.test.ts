import {
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from '../catalog/support.js';
import type { HttpServer } from '@lockdrop/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL, createStorefrontHarness, httpGetter, type StorefrontHarness } from './support.js';

let harness: StorefrontHarness;
let catalog: CatalogHarness;
let gateway: HttpServer;
let seller: Seller;

beforeAll(async () => {
  harness = await createStorefrontHarness();
  ({ catalog, gateway } = harness);
  get = httpGetter(gateway);
  seller = await catalog.seller();
});

afterAll(() => harness?.close());

// Over a real socket: kept pages are answered before Fastify, where `inject` never goes.
let get: ReturnType<typeof httpGetter>;

const page = async (id: string) => {
  const response = await get(`/product/${id}`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/html');
  return response.body;
};

const tag = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key.replace(':', '\\:')}" content="([^"]*)" />`).exec(
    html,
  )?.[1];

describe('share page /product/:id', () => {
  it('carries escaped Open Graph and Twitter tags for a published product with a preview', async () => {
    const product = await makeProduct(catalog, seller, {
      title: `<script>alert("x")</script> Tom & Jerry's "pack"`,
      description: 'Stems & loops <b>lossless</b>',
      price: '19.99',
      previewEnabled: true,
    });
    await publish(catalog, seller, product.id);
    const html = await page(product.id);

    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>lossless');
    expect(tag(html, 'og:title')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Tom &amp; Jerry&#39;s &quot;pack&quot; — $19.99',
    );
    expect(tag(html, 'og:description')).toBe(
      '$19.99 · Stems &amp; loops &lt;b&gt;lossless&lt;/b&gt;',
    );
    expect(tag(html, 'og:image')).toBe(`https://lockdrop.example/api/previews/${product.id}`);
    expect(tag(html, 'og:url')).toBe(`https://lockdrop.example/product/${product.id}`);
    expect(tag(html, 'twitter:card')).toBe('summary_large_image');
    expect(tag(html, 'twitter:image')).toBe(`https://lockdrop.example/api/previews/${product.id}`);
    // The product page's largest paint, hinted with the very URL the web app will ask for.
    const read = (await gateway.inject({ url: `/api/products/${product.id}` })).json();
    const version = encodeURIComponent(`${read.previewBlurPercentage}-${read.updatedAt}`);
    expect(html).toContain(
      `<link rel="preload" as="image" href="/api/previews/${product.id}?v=${version}" />`,
    );
    expect(tag(html, 'product:price:amount')).toBe('19.99');
    expect(tag(html, 'product:price:currency')).toBe('USD');
    // The shell's generic title and description are replaced, not duplicated.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain(
      '<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Tom &amp; Jerry&#39;s &quot;pack&quot; · Lockdrop</title>',
    );
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    // Tags go in the head, and the SPA still boots from the same shell.
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<!-- spa shell -->');
  });

  it("keeps a title holding replacement patterns ($` $& $') as text", async () => {
    const title = "Beats $` and $& and $' pack";
    const product = await makeProduct(catalog, seller, { title, price: '5.00' });
    await publish(catalog, seller, product.id);
    const html = await page(product.id);
    expect(tag(html, 'og:title')).toBe('Beats $` and $&amp; and $&#39; pack — $5.00');
    expect(html.match(/<head>/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
  });

  it('uses the brand image and a recurring price label when the seller shows no preview', async () => {
    const product = await makeProduct(catalog, seller, {
      previewEnabled: false,
      price: '9.99',
      pricing: { type: 'recurring', interval: 'monthly' },
      description: null,
    });
    await publish(catalog, seller, product.id);
    const html = await page(product.id);
    expect(tag(html, 'og:image')).toBe('https://lockdrop.example/og-image.png');
    expect(html).not.toContain('rel="preload" as="image"');
    expect(tag(html, 'twitter:card')).toBe('summary');
    expect(tag(html, 'og:description')).toBe(
      '$9.99/month · Pay securely and download instantly on Lockdrop.',
    );
  });

  it('serves the plain shell for a draft, an unknown id and a malformed id', async () => {
    const draft = await makeProduct(catalog, seller);
    for (const id of [draft.id, '0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10', 'not-a-product']) {
      expect(await page(id)).toBe(SHELL);
    }
  });

  it('shows a product published after its draft page was opened within a second (product.published drops the miss)', async () => {
    const product = await makeProduct(catalog, seller);
    expect(await page(product.id)).toBe(SHELL);
    await publish(catalog, seller, product.id);
    const publishedAt = Date.now();
    await waitUntil(
      () => page(product.id),
      (html) => tag(html, 'og:title')?.includes(product.title) ?? false,
      1_000,
    );
    expect(Date.now() - publishedAt).toBeLessThan(1_000);
  });

  it('still serves the page, without tags, when catalog is unreachable', async () => {
    const product = await makeProduct(catalog, seller);
    await publish(catalog, seller, product.id);
    const cut = await harness.buildGateway({ CATALOG_URL: 'http://127.0.0.1:9' });
    const response = await cut.inject({ url: `/product/${product.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SHELL);
  });

  it('answers a kept page before the framework with the same headers and bytes', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Kept page' });
    await publish(catalog, seller, product.id);
    const earlyPages = async () =>
      Number(
        /gateway_early_answers_total\{[^}]*route="\/product\/:id"[^}]*\} (\d+)/.exec(
          (await gateway.inject({ url: '/metrics' })).body,
        )?.[1] ?? 0,
      );
    await harness.published(product.id);
    const before = await earlyPages();
    const loaded = await get(`/product/${product.id}?ref=chat`);
    expect(await earlyPages()).toBe(before);
    const kept = await get(`/product/${product.id}?ref=chat`);
    expect(await earlyPages()).toBe(before + 1);
    expect(tag(kept.body, 'og:title')).toBe('Kept page — $19.99');
    expect(kept.body).toBe(loaded.body);
    const comparable = ({ date: _date, 'x-request-id': _id, ...rest }: Record<string, string>) =>
      rest;
    expect(comparable(kept.headers)).toEqual(comparable(loaded.headers));
    expect(kept.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-served-by': 'gateway',
      'x-frame-options': 'SAMEORIGIN',
    });
  });

  it('does not count building a link preview as a product view', async () => {
    const product = await makeProduct(catalog, seller);
    await publish(catalog, seller, product.id);
    await page(product.id);
    expect(await catalog.outbox('product.viewed', product.id)).toHaveLength(0);
  });
});
