import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lockdrop/config';
import { productPath } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { buildApp as buildGateway } from '@lockdrop/gateway/src/app.js';
import { configSchema as gatewayConfig } from '@lockdrop/gateway/src/config.js';
import { buildApp as buildPayments } from '@lockdrop/payments/src/app.js';
import { configSchema as paymentsConfig } from '@lockdrop/payments/src/config.js';
import {
  startCaddyEdge,
  startFakeDns,
  testEnv,
  waitFor,
  waitUntil,
  type FakeDns,
} from '@lockdrop/testing';
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  type CatalogHarness,
} from '../catalog/support.js';
import { FRAME, RENDERER, SHELL } from './support.js';

// Real catalog (domains, products), delivery, payments (checkout) and gateway on one bus; DNS
// is a fake server the test writes the seller's records into.
const PUBLIC_URL = 'https://lockdrop.example';
const EDGE_HOST = 'edge.lockdrop.test';

let dns: FakeDns;
let catalog: CatalogHarness;
let payments: HttpServer;
let gateway: HttpServer;
let gatewayPort: number;
let webDist: string;

beforeAll(async () => {
  dns = await startFakeDns();
  catalog = await createCatalogHarness({
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '200',
    EDGE_HOST,
    PUBLIC_URL,
    DOMAIN_FAILED_CHECKS_BEFORE_PAUSE: '2',
  });
  const catalogUrl = await catalog.app.listen({ port: 0, host: '127.0.0.1' });
  payments = await buildPayments(loadConfig(paymentsConfig, { ...catalog.env, PUBLIC_URL }));
  const paymentsUrl = await payments.listen({ port: 0, host: '127.0.0.1' });
  webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-domains-'));
  await writeFile(path.join(webDist, 'index.html'), SHELL);
  await mkdir(path.join(webDist, 'prerendered'));
  await writeFile(path.join(webDist, 'prerendered', '_product.html'), FRAME);
  await writeFile(path.join(webDist, 'renderer.mjs'), RENDERER);
  gateway = await buildGateway(
    loadConfig(gatewayConfig, {
      CATALOG_URL: catalogUrl,
      PAYMENTS_URL: paymentsUrl,
      DELIVERY_URL: catalog.env.DELIVERY_URL,
      REDIS_URL: testEnv.redisUrl,
      REDIS_KEY_PREFIX: `${catalog.namespace}:gateway:`,
      NATS_URL: testEnv.natsUrl,
      BUS_NAMESPACE: catalog.namespace,
      WEB_DIST: webDist,
      WEB_RENDERER: path.join(webDist, 'renderer.mjs'),
      PUBLIC_URL,
      // Kept five minutes: only store.domain_updated can make a new state show within the test.
      DOMAIN_CACHE_SECONDS: '300',
      // The edge (Caddy) on this machine is the one proxy whose X-Forwarded-Proto counts.
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'silent',
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayPort = (gateway.server.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await payments?.close();
  await catalog?.close();
  await dns?.close();
  await rm(webDist, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the gateway as a browser on `host` sends it (the Host header names the site). */
function onHost(
  host: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: gatewayPort,
        path: pathname,
        method: options.method ?? 'GET',
        headers: {
          host,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const tag = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)" \/>/.exec(html)?.[1];

let counter = 0;
const fresh = (what: string) => `${what}-${process.pid}-${++counter}`;

/** A Business store with a brand, a published product and a domain in `state`. */
async function storeWithDomain(state: 'verified' | 'pending') {
  const seller = await catalog.seller({ plan: 'business' });
  const handle = fresh('store');
  await catalog.app.inject({
    method: 'PUT',
    url: '/api/brand',
    headers: seller.auth,
    payload: { handle, name: 'Dawn Recordings', accentColour: '#1d4ed8' },
  });
  const product = await makeProduct(catalog, seller, { previewEnabled: false });
  await publish(catalog, seller, product.id);
  const host = `${fresh('shop')}.example.com`;
  // The seller's settings go through the gateway, on Lockdrop's own host.
  const added = await onHost('lockdrop.example', '/api/domain', {
    method: 'PUT',
    headers: seller.auth,
    body: { host },
  });
  expect(added.status).toBe(200);
  const token = String(JSON.parse(added.body).domain.records[0].value);
  const verify = async () => {
    dns.set(`_lockdrop.${host}`, [{ type: 'TXT', name: `_lockdrop.${host}`, strings: [token] }]);
    dns.set(host, [{ type: 'CNAME', name: host, target: EDGE_HOST }]);
    const verified = await onHost('lockdrop.example', '/api/domain/verify', {
      method: 'POST',
      headers: seller.auth,
    });
    expect(JSON.parse(verified.body).domain.status).toBe('verified');
  };
  if (state === 'verified') await verify();
  return { seller, handle, product, host, verify, site: `http://${host}:${gatewayPort}` };
}

const hostAt = (host: string) => `${host}:${gatewayPort}`;

describe('a verified custom domain', () => {
  it('serves the store page at / and its product pages with canonical and OG URLs on the domain', async () => {
    const store = await storeWithDomain('verified');
    const home = await onHost(hostAt(store.host), '/');
    expect(home.status).toBe(200);
    expect(tag(home.body, 'lockdrop-store')).toBe(store.handle);
    expect(tag(home.body, 'lockdrop-site')).toBe(PUBLIC_URL);
    expect(canonical(home.body)).toBe(`${store.site}/`);

    const page = await onHost(hostAt(store.host), productPath(store.product));
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h1>${store.product.title}</h1>`);
    expect(canonical(page.body)).toBe(`${store.site}${productPath(store.product)}`);
    expect(tag(page.body, 'og:url')).toBe(`${store.site}${productPath(store.product)}`);
    expect(tag(page.body, 'og:site_name')).toBe('Dawn Recordings');
    expect(tag(page.body, 'lockdrop-store')).toBe(store.handle);

    // The Lockdrop URLs keep working, with the domain as their canonical address.
    const ours = await onHost('lockdrop.example', productPath(store.product));
    expect(ours.status).toBe(200);
    expect(canonical(ours.body)).toBe(`https://${store.host}${productPath(store.product)}`);
    expect(tag(ours.body, 'lockdrop-store')).toBeUndefined();

    // The store page's own address on the domain is its root.
    const storePath = await onHost(hostAt(store.host), `/s/${store.handle}`);
    expect([storePath.status, storePath.headers.location]).toEqual([301, '/']);
    const read = await onHost(hostAt(store.host), `/api/stores/${store.handle}`);
    expect(JSON.parse(read.body).products.map((p: { id: string }) => p.id)).toEqual([
      store.product.id,
    ]);
  });

  it('is canonical on Lockdrop’s own addresses while it serves, and Lockdrop is again once it is paused', async () => {
    const store = await storeWithDomain('verified');
    const path = productPath(store.product);
    const onDomain = `https://${store.host}`;
    // A product read of the product was kept before (cached reads must follow the domain).
    for (const address of [path, `/product/${store.product.id}`]) {
      const page = await onHost('lockdrop.example', address);
      expect([address, page.status]).toEqual([address, 200]);
      expect(canonical(page.body)).toBe(`${onDomain}${path}`);
      expect(tag(page.body, 'og:url')).toBe(`${onDomain}${path}`);
      // Served from Lockdrop: the page's images come from here, and it is not the domain's frame.
      expect(tag(page.body, 'og:image')).toMatch(new RegExp(`^${PUBLIC_URL}/`));
      expect(tag(page.body, 'lockdrop-store')).toBeUndefined();
    }
    const read = JSON.parse(
      (await onHost('lockdrop.example', `/api/products/${store.product.id}`)).body,
    );
    expect(read.storeDomain).toBe(store.host);
    const storePage = await onHost('lockdrop.example', `/s/${store.handle}`);
    expect(storePage.status).toBe(200);
    expect(canonical(storePage.body)).toBe(`${onDomain}/`);
    expect(tag(storePage.body, 'og:url')).toBe(`${onDomain}/`);
    expect(
      JSON.parse((await onHost('lockdrop.example', `/api/stores/${store.handle}`)).body).domain,
    ).toBe(store.host);

    // A store whose domain is only pending is canonical on Lockdrop.
    const pending = await storeWithDomain('pending');
    const pendingPage = await onHost('lockdrop.example', productPath(pending.product));
    expect(canonical(pendingPage.body)).toBe(`${PUBLIC_URL}${productPath(pending.product)}`);
    const pendingStore = await onHost('lockdrop.example', `/s/${pending.handle}`);
    expect([pendingStore.status, canonical(pendingStore.body)]).toEqual([200, undefined]);

    // The records go and two checks in a row miss them: paused. The store page's answer is kept
    // five minutes (DOMAIN_CACHE_SECONDS), so only the event can bring Lockdrop back this soon.
    dns.clear(`_lockdrop.${store.host}`);
    for (let check = 0; check < 2; check++)
      await onHost('lockdrop.example', '/api/domain/verify', {
        method: 'POST',
        headers: store.seller.auth,
      });
    const settings = await onHost('lockdrop.example', '/api/domain', {
      headers: store.seller.auth,
    });
    expect(JSON.parse(settings.body).domain.status).toBe('paused');
    await waitUntil(
      async () => canonical((await onHost('lockdrop.example', path)).body),
      (url) => url === `${PUBLIC_URL}${path}`,
      5_000,
    );
    await waitUntil(
      async () => canonical((await onHost('lockdrop.example', `/s/${store.handle}`)).body),
      (url) => url === undefined,
      5_000,
    );
    const paused = await onHost('lockdrop.example', path);
    expect(tag(paused.body, 'og:url')).toBe(`${PUBLIC_URL}${path}`);
  });

  it('shows only its own store’s products', async () => {
    const store = await storeWithDomain('verified');
    const other = await storeWithDomain('pending');
    const page = await onHost(hostAt(store.host), productPath(other.product));
    expect(page.status).toBe(404);
    expect(canonical(page.body)).toBeUndefined();
  });

  it('keeps dashboard sessions off the domain: no sign-in, no session passed on, pages sent home', async () => {
    const store = await storeWithDomain('verified');
    for (const pathname of ['/login', '/dashboard', '/settings?tab=domain']) {
      const page = await onHost(hostAt(store.host), pathname);
      expect([pathname, page.status, page.headers.location]).toEqual([
        pathname,
        302,
        `${PUBLIC_URL}${pathname}`,
      ]);
    }
    const signIn = await onHost(hostAt(store.host), '/api/auth/sign-in', {
      method: 'POST',
      body: { email: 'seller@example.com', password: 'correct horse battery' },
    });
    expect(signIn.status).toBe(404);
    expect(JSON.parse(signIn.body).error.code).toBe('not_on_store_domain');
    expect(signIn.headers['set-cookie']).toBeUndefined();
    // What the buyer's pages call is there: a download request reaches delivery (which wants a
    // purchase), not the domain's refusal.
    const download = await onHost(hostAt(store.host), '/api/downloads', {
      method: 'POST',
      body: {},
    });
    expect(JSON.parse(download.body).error.code).not.toBe('not_on_store_domain');
    const session = await onHost(hostAt(store.host), '/api/auth/session');
    expect([session.status, JSON.parse(session.body)]).toEqual([200, { user: null }]);

    // A session cookie carried to the domain anyway is not passed on: the seller's own list
    // answers on Lockdrop's host and not on the domain.
    const cookie = `ld_access=${store.seller.token}`;
    expect(
      (await onHost('lockdrop.example', '/api/products/mine', { headers: { cookie } })).status,
    ).toBe(200);
    const mine = await onHost(hostAt(store.host), '/api/products/mine', { headers: { cookie } });
    expect(mine.status).toBe(401);
  });

  it('checks out back to the domain: the provider’s redirect_url names it, never a claimed one', async () => {
    const store = await storeWithDomain('verified');
    const checkoutOn = async (host: string, headers: Record<string, string> = {}) => {
      const started = await onHost(host, '/api/checkout', {
        method: 'POST',
        headers,
        body: { productId: store.product.id, buyerEmail: `${fresh('buyer')}@example.com` },
      });
      expect(started.status).toBe(200);
      const { link } = JSON.parse(started.body) as { link: string };
      const txRef = decodeURIComponent(link.split('/').pop()!);
      const hosted = await onHost('lockdrop.example', new URL(link).pathname);
      const paid = await onHost(
        'lockdrop.example',
        `/sandbox/checkout/${encodeURIComponent(txRef)}/pay`,
        {
          method: 'POST',
        },
      );
      expect(paid.status).toBe(303);
      // The provider's page may send its form on to that way back (form-action follows redirects).
      const back = new URL(String(paid.headers.location)).origin;
      expect(String(hosted.headers['content-security-policy'])).toContain(
        `form-action 'self' ${back}`,
      );
      return {
        location: new URL(String(paid.headers.location)),
        cookies: started.headers['set-cookie'],
      };
    };

    const onDomain = await checkoutOn(hostAt(store.host));
    expect(onDomain.location.origin).toBe(store.site);
    expect(onDomain.location.pathname).toBe('/payment/success');
    // The buyer's browser key is the domain's own cookie (host-only, no Domain attribute).
    expect(String(onDomain.cookies)).toMatch(/^ld_buyer=/);
    expect(String(onDomain.cookies)).not.toMatch(/domain=/i);

    const onOurs = await checkoutOn('lockdrop.example');
    expect(onOurs.location.origin).toBe(PUBLIC_URL);
    // A client naming a store origin itself is not believed.
    const claimed = await checkoutOn('lockdrop.example', {
      'x-lockdrop-store-origin': 'https://attacker.example',
      'x-lockdrop-store-seller': store.seller.id,
    });
    expect(claimed.location.origin).toBe(PUBLIC_URL);
    // Another store's domain does not become this product's way back.
    const other = await storeWithDomain('verified');
    const elsewhere = await checkoutOn(hostAt(other.host));
    expect(elsewhere.location.origin).toBe(PUBLIC_URL);
  });
});

describe('hosts that are not a verified store domain', () => {
  it('get a clear 404 page, not the main site; a domain verified later serves at once', async () => {
    const unknown = await onHost('nobody.example.net', '/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('No store at nobody.example.net');
    expect(unknown.body).not.toContain('<div id="root">');
    const unknownApi = await onHost('nobody.example.net', '/api/products/mine');
    expect([unknownApi.status, JSON.parse(unknownApi.body).error.code]).toEqual([
      404,
      'domain_not_found',
    ]);

    const store = await storeWithDomain('pending');
    const pending = await onHost(hostAt(store.host), '/');
    expect(pending.status).toBe(404);
    expect(pending.body).toContain(`No store at ${store.host}`);
    // Kept for five minutes, yet the verification's event makes it serve now.
    await store.verify();
    await waitUntil(
      async () => (await onHost(hostAt(store.host), '/')).status,
      (status) => status === 200,
      5_000,
    );
  });

  it('answer Caddy’s ask: a certificate only for a verified store domain', async () => {
    const store = await storeWithDomain('verified');
    const pending = await storeWithDomain('pending');
    const ask = async (domain: string) =>
      (await onHost('127.0.0.1', `/internal/domains/ask?domain=${encodeURIComponent(domain)}`))
        .status;
    expect(await ask(store.host)).toBe(200);
    expect(await ask(store.host.toUpperCase())).toBe(200);
    expect(await ask(pending.host)).toBe(404);
    expect(await ask('nobody.example.net')).toBe(404);
    expect(await ask('lockdrop.example')).toBe(404);
  });
});

describe('TLS for custom domains at the edge', () => {
  it('Caddy asks the gateway, gets a certificate on demand and serves the product page over HTTPS', async () => {
    const store = await storeWithDomain('verified');
    const pending = await storeWithDomain('pending');
    const edge = await startCaddyEdge({ gatewayUrl: `http://127.0.0.1:${gatewayPort}` });
    try {
      const ca = await waitFor(() => edge.rootCertificate().catch(() => null), 10_000);
      // Every name resolves to this machine, as the seller's CNAME would bring buyers to the edge.
      const lookup: LookupFunction = (_hostname, options, callback) =>
        options.all
          ? (callback as (error: null, addresses: { address: string; family: number }[]) => void)(
              null,
              [{ address: '127.0.0.1', family: 4 }],
            )
          : callback(null, '127.0.0.1', 4);
      const dispatcher = new Agent({ connect: { ca, lookup } });
      const site = `https://${store.host}:${edge.httpsPort}`;
      const page = await undiciFetch(`${site}${productPath(store.product)}`, { dispatcher });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`<h1>${store.product.title}</h1>`);
      // Through the edge the origin is https: canonical, OG and the way back from checkout.
      expect(canonical(html)).toBe(`${site}${productPath(store.product)}`);

      // No certificate for a host that is not a verified store domain: the handshake fails.
      for (const host of [pending.host, 'nobody.example.net']) {
        const refused = await undiciFetch(`https://${host}:${edge.httpsPort}/`, {
          dispatcher,
        }).then(
          () => 'answered',
          (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
        );
        expect([host, refused]).not.toEqual([host, 'answered']);
      }
      await dispatcher.close();
    } finally {
      await edge.stop();
    }
  });
});
