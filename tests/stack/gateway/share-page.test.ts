import {
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from '../catalog/support.js';
import { request } from 'node:http';
import { productSlug, shortIdOf } from '@lockdrop/contracts';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { HttpServer } from '@lockdrop/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL, createStorefrontHarness, httpGetter, type StorefrontHarness } from './support.js';

const renderedQueries = (html: string) =>
  /<script type="application\/json" id="ld-rendered-queries">([^<]*)<\/script>/.exec(html)?.[1];

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
    // The readable address, wherever the page was reached from (issue 29).
    const readable = `https://lockdrop.example/p/${productSlug(product.title)}-${shortIdOf(product.id)}`;
    expect(tag(html, 'og:url')).toBe(readable);
    expect(html).toContain(`<link rel="canonical" href="${readable}" />`);
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

  it('answers 404 with the plain shell for a draft, an unknown id and a malformed id, from both paths', async () => {
    const draft = await makeProduct(catalog, seller);
    for (const id of [draft.id, '0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10', 'not-a-product']) {
      // Twice: the first read goes through Fastify, the second is answered from memory.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await get(`/product/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.body).toBe(SHELL);
      }
    }
    for (const slugId of [
      `draft-${shortIdOf(draft.id)}`,
      `x-${shortIdOf('0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10')}`,
      'no-short-id-here',
    ]) {
      const response = await get(`/p/${slugId}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(SHELL);
    }
  });

  it('shows a product published after its draft page was opened within a second (product.published drops the miss)', async () => {
    const product = await makeProduct(catalog, seller);
    expect((await get(`/product/${product.id}`)).body).toBe(SHELL);
    await publish(catalog, seller, product.id);
    const publishedAt = Date.now();
    // Until the event arrives the kept miss still answers 404; then the page, with 200.
    const shown = await waitUntil(
      () => get(`/product/${product.id}`),
      (answer) => tag(answer.body, 'og:title')?.includes(product.title) ?? false,
      1_000,
    );
    expect(shown.statusCode).toBe(200);
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
    // A read is kept for a second at most: on a loaded machine the next request may come after
    // it, and is then made on the route again. The one after that finds it kept.
    let kept = await get(`/product/${product.id}?ref=chat`);
    for (let tries = 1; tries < 5 && (await earlyPages()) === before; tries += 1)
      kept = await get(`/product/${product.id}?ref=chat`);
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

  it('renders a published product into the frame, with its read as the data the browser hydrates from', async () => {
    const title = '</script><script>alert(1)</script> Stems & loops';
    const product = await makeProduct(catalog, seller, { title });
    await publish(catalog, seller, product.id);
    const html = await page(product.id);

    expect(html).toContain(
      '<div id="root"><main><h1>&lt;/script>&lt;script>alert(1)&lt;/script> Stems &amp; loops</h1></main></div>',
    );
    const block = renderedQueries(html);
    expect(block).toBeDefined();
    expect(block).not.toContain('</script>');
    const [query] = JSON.parse(block!);
    expect(query.queryKey).toEqual(['products', product.id, { currency: null }]);
    expect(query.data).toEqual((await get(`/api/products/${product.id}`)).json());
    expect(tag(html, 'og:title')).toBe(
      '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; Stems &amp; loops — $19.99',
    );
  });

  it('renders a product again when it changed, not every time its read is fetched again', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Rendered once' });
    await publish(catalog, seller, product.id);
    const rendered = () =>
      (globalThis as { productPagesRendered?: number }).productPagesRendered ?? 0;
    const first = await page(product.id);
    const before = rendered();
    // Past the second a read is kept: the gateway reads the product again, unchanged.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await page(product.id)).toBe(first);
    expect(rendered()).toBe(before);

    const edited = await catalog.app.inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { title: 'Rendered twice' },
    });
    expect(edited.statusCode).toBe(200);
    await waitUntil(
      () => page(product.id),
      (html) => html.includes('<h1>Rendered twice</h1>'),
    );
    expect(rendered()).toBe(before + 1);
  });

  it('gives the shell with the tags when the product cannot be rendered, or there is no renderer', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Renderer breaks' });
    await publish(catalog, seller, product.id);
    const broken = await page(product.id);
    expect(broken).toContain('<div id="root"></div><!-- spa shell -->');
    expect(renderedQueries(broken)).toBeUndefined();
    expect(tag(broken, 'og:title')).toBe('Renderer breaks — $19.99');

    const withoutRenderer = await harness.buildGateway({ WEB_RENDERER: '/nowhere/prerender.js' });
    const plain = await httpGetter(withoutRenderer)(`/product/${product.id}`);
    expect(plain.body).toContain('<div id="root"></div><!-- spa shell -->');
    expect(tag(plain.body, 'og:title')).toBe('Renderer breaks — $19.99');
  });

  it('is sent compressed as the client accepts it, the same from both paths', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Compressed page' });
    await publish(catalog, seller, product.id);
    await harness.published(product.id);
    const identity = (await get(`/product/${product.id}`, { 'accept-encoding': 'identity' })).body;
    // `get` has the gateway listening; this client shows the bytes as sent, not decoded.
    const address = gateway.server.address() as AddressInfo;
    const raw = (acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>(
        (resolve, reject) => {
          request(
            {
              host: '127.0.0.1',
              port: address.port,
              path: `/product/${product.id}`,
              headers: { 'accept-encoding': acceptEncoding },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () =>
                resolve({
                  encoding: response.headers['content-encoding'],
                  vary: response.headers.vary,
                  body: Buffer.concat(chunks),
                }),
              );
            },
          )
            .on('error', reject)
            .end();
        },
      );
    // Twice each: the first may be made on the route, the second is the kept page.
    for (let round = 0; round < 2; round += 1) {
      const br = await raw('gzip, deflate, br');
      expect(br.encoding).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toBe(identity);
      const gzip = await raw('gzip;q=1, br;q=0');
      expect(gzip.encoding).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(identity);
      const plain = await raw('identity');
      expect(plain.encoding).toBeUndefined();
      expect(plain.body.toString()).toBe(identity);
      expect(plain.vary).toBe('accept-encoding');
    }
  });

  it('does not count building a link preview as a product view', async () => {
    const product = await makeProduct(catalog, seller);
    await publish(catalog, seller, product.id);
    await page(product.id);
    expect(await catalog.outbox('product.viewed', product.id)).toHaveLength(0);
  });
});

describe('readable product address /p/<slug>-<shortId> (issue 29)', () => {
  const readable = (product: { id: string; title: string }) =>
    `/p/${productSlug(product.title)}-${shortIdOf(product.id)}`;

  it('serves the rendered page at the readable address, the same from memory, canonical to itself', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Café Crème Recipes' });
    await publish(catalog, seller, product.id);
    expect(readable(product)).toMatch(/^\/p\/cafe-creme-recipes-[0-9A-Za-z]{11}$/);
    const first = await get(readable(product));
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<h1>Café Crème Recipes</h1>');
    expect(first.body).toContain(
      `<link rel="canonical" href="https://lockdrop.example${readable(product)}" />`,
    );
    const second = await get(readable(product));
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    // The old address keeps working and names the readable one as canonical.
    const old = await get(`/product/${product.id}`);
    expect(old.statusCode).toBe(200);
    expect(old.body).toContain(
      `<link rel="canonical" href="https://lockdrop.example${readable(product)}" />`,
    );
  });

  it('moves an old slug (a renamed product) or a bare short id permanently to the current address, query kept', async () => {
    const product = await makeProduct(catalog, seller, { title: 'Old name' });
    await publish(catalog, seller, product.id);
    const oldAddress = readable(product);
    expect((await get(oldAddress)).statusCode).toBe(200);
    const renamed = await catalog.app.inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { title: 'New name' },
    });
    expect(renamed.statusCode).toBe(200);
    const current = readable({ id: product.id, title: 'New name' });
    // Twice: through Fastify, then from memory before it.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const moved = await waitUntil(
        () => get(`${oldAddress}?code=SAVE10`, {}, 'manual'),
        (answer) => answer.statusCode === 301,
      );
      expect(moved.headers.location).toBe(`${current}?code=SAVE10`);
    }
    const bare = await get(`/p/${shortIdOf(product.id)}`, {}, 'manual');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(current);
    const page = await get(current, {}, 'manual');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>New name</h1>');
  });
});
