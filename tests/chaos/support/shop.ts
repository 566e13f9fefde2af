import { randomBytes } from 'node:crypto';
import { chargeInSandbox, sandboxWebhookHeaders, waitFor, waitUntil } from '@lockdrop/testing';
import type { Cluster } from './cluster';
import type { ProviderWebhook } from './flutterwave';

/** A cookie-keeping HTTP client of the gateway, as a browser is. */
export function browser(baseUrl: string) {
  const cookies = new Map<string, string>();
  const request = async (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('origin', baseUrl);
    if (cookies.size)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(pathname, baseUrl), {
      ...init,
      headers,
      redirect: 'manual',
      signal: init.signal ?? AbortSignal.timeout(30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
    return response;
  };
  const json = async <T = unknown>(
    pathname: string,
    body?: unknown,
    method = 'POST',
  ): Promise<T> => {
    const response = await request(pathname, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return { request, json, cookies };
}
export type Browser = ReturnType<typeof browser>;

/**
 * What a person does when a page fails while a replica restarts: tries again. Retries on a
 * network failure or a 502/503 only; anything else is an answer.
 */
export async function persistently<T>(
  attempt: () => Promise<T>,
  {
    timeoutMs = 60_000,
    alsoRetry,
  }: {
    timeoutMs?: number;
    /** Another answer that means "not yet" here (matched against the error's message). */
    alsoRetry?: RegExp;
  } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      const message = String((error as Error).message);
      const transient =
        error instanceof TypeError ||
        /: 50[234] /.test(message) ||
        (alsoRetry?.test(message) ?? false);
      if (!transient || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

export function multipart(fileName: string, bytes: Buffer, contentType = 'application/zip') {
  const boundary = `----lockdrop-chaos-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface Shop {
  seller: Browser;
  sellerId: string;
  productId: string;
  fileBytes: Buffer;
}

/** What a product costs: a one-time ₦5,000 unless said otherwise. */
export interface ProductTerms {
  price?: string;
  currency?: string;
  pricing?: { type: 'one_time' } | { type: 'recurring'; interval: 'monthly' | 'yearly' };
}

/** Uploads a 2 MiB file and publishes a product holding it; returns its id and the file's bytes. */
export async function publishProduct(
  seller: Browser,
  label: string,
  terms: ProductTerms = {},
): Promise<{ productId: string; fileBytes: Buffer }> {
  const fileBytes = randomBytes(2 * 1024 * 1024);
  const upload = multipart('pack.zip', fileBytes);
  const uploaded = await seller.request('/api/uploads', {
    method: 'POST',
    headers: { 'content-type': upload.contentType },
    body: upload.body,
  });
  if (uploaded.status !== 201)
    throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
  const { id: fileId } = (await uploaded.json()) as { id: string };
  const product = await seller.json<{ id: string }>('/api/products', {
    title: `Lagos sound pack ${label}`,
    description: 'Field recordings from Balogun market.',
    price: terms.price ?? '5000.00',
    currency: terms.currency ?? 'NGN',
    pricing: terms.pricing ?? { type: 'one_time' },
    fileId,
    previewEnabled: false,
  });
  await seller.json(`/api/products/${product.id}/status`, { status: 'published' });
  return { productId: product.id, fileBytes };
}

/** A seller with a verified bank account and one published product (₦5,000 unless `terms`) holding a 2 MiB file. */
export async function openShop(
  cluster: Cluster,
  label: string,
  terms: ProductTerms = {},
): Promise<Shop> {
  const seller = browser(cluster.baseUrl);
  const signedUp = await seller.json<{ user: { id: string } }>('/api/auth/sign-up', {
    email: `chaos-${label}-${randomBytes(4).toString('hex')}@example.com`,
    password: `Chaos-${randomBytes(8).toString('hex')}`,
    fullName: 'Chaos Seller',
    acceptTerms: true,
  });
  const { productId, fileBytes } = await publishProduct(seller, label, terms);
  const account = { bankCode: '058', accountNumber: '0123456789' };
  const { accountName } = await seller.json<{ accountName: string }>(
    '/api/payouts/resolve-account',
    account,
  );
  await seller.json('/api/payouts/destination', { method: 'bank', ...account, accountName }, 'PUT');
  return { seller, sellerId: signedUp.user.id, productId, fileBytes };
}

/** Opens `count` checkouts (a buyer each), `inFlight` at a time; payments learns of a publication a moment after it. */
export async function openCheckouts(
  cluster: Cluster,
  productId: string,
  count: number,
  inFlight = 10,
): Promise<{ txRefs: string[]; buyers: Map<string, Browser> }> {
  const txRefs: string[] = [];
  const buyers = new Map<string, Browser>();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const buyer = browser(cluster.baseUrl);
        const { txRef } = await persistently(() =>
          buyer.json<{ txRef: string }>('/api/checkout', {
            productId,
            buyerEmail: `buyer-${index}-${randomBytes(3).toString('hex')}@example.com`,
          }),
        );
        txRefs.push(txRef);
        buyers.set(txRef, buyer);
      }
    }),
  );
  return { txRefs, buyers };
}

/** The provider charges each checkout; returns the signed notifications it would send. */
export async function providerCharges(cluster: Cluster, txRefs: string[]): Promise<Buffer[]> {
  return (await chargeInSandbox(cluster.db, txRefs)).map((notification) => notification.raw);
}

export interface WebhookStorm {
  deliveries: number;
  /** Deliveries that failed (no answer, or not 200) and were sent again, as the provider does. */
  retried: number;
}

/**
 * Posts every sandbox notification, plus 25% duplicates, `inFlight` at a time, to the given bases
 * in turn, as `deliverNotifications` does. Returns once every charge is a purchase.
 */
export async function webhookStorm(
  cluster: Cluster,
  bodies: Buffer[],
  options: {
    inFlight?: number;
    bases?: string[];
    /** Runs once the first delivery is accepted, while the rest are still on their way. */
    onFirstAccepted?: () => Promise<void>;
  } = {},
): Promise<WebhookStorm> {
  const secret = cluster.sandboxWebhookSecret;
  const storm = await deliverUntilAccepted(
    cluster,
    '/api/webhooks/sandbox',
    bodies.map((raw) => ({ raw, headers: sandboxWebhookHeaders(secret, raw) })),
    { inFlight: 10, ...options },
  );
  // Payments acknowledges a delivery once stored and settles it right after (its event drain;
  // a replica killed mid-settlement leaves the event to another when the lease ends).
  const txRefs = [
    ...new Set(
      bodies.map(
        (raw) => (JSON.parse(raw.toString('utf8')) as { data: { tx_ref: string } }).data.tx_ref,
      ),
    ),
  ];
  await waitFor(
    async () =>
      (
        await cluster.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM payments.purchases WHERE tx_ref = ANY($1)',
          [txRefs],
        )
      ).rows[0]!.n === txRefs.length,
    120_000,
    'every accepted charge to be settled',
  );
  return storm;
}

/**
 * Posts each provider notification (`/api/webhooks/flutterwave`), plus `duplicateShare` of them
 * again, `inFlight` at a time, to the given bases in turn; one not answered 200 is sent again
 * after a pause until it is, as Flutterwave retries a failed webhook. Settling is the caller's
 * to wait for (a renewal's, a dispute's outcome differ).
 */
export function deliverNotifications(
  cluster: Cluster,
  webhooks: ProviderWebhook[],
  options: DeliveryOptions = {},
): Promise<WebhookStorm> {
  return deliverUntilAccepted(cluster, '/api/webhooks/flutterwave', webhooks, options);
}

interface DeliveryOptions {
  inFlight?: number;
  bases?: string[];
  duplicateShare?: number;
  onFirstAccepted?: () => Promise<void>;
}

/** The provider's side of a storm: shuffled deliveries with duplicates, each retried until answered 200. */
async function deliverUntilAccepted(
  cluster: Cluster,
  path: string,
  webhooks: { raw: string | Buffer; headers: Record<string, string> }[],
  {
    inFlight = 6,
    bases = [cluster.baseUrl],
    duplicateShare = 0.25,
    onFirstAccepted,
  }: DeliveryOptions,
): Promise<WebhookStorm> {
  const duplicates = Math.ceil(webhooks.length * duplicateShare);
  const deliveries = [
    ...webhooks,
    ...Array.from({ length: duplicates }, (_, index) => webhooks[(index * 7) % webhooks.length]!),
  ].sort(() => Math.random() - 0.5);
  let cursor = 0;
  let retried = 0;
  let during: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (cursor < deliveries.length) {
        const index = cursor++;
        const { raw, headers } = deliveries[index]!;
        const base = bases[index % bases.length];
        await waitFor(
          async () => {
            const response = await fetch(`${base}${path}`, {
              method: 'POST',
              headers,
              body: raw,
              signal: AbortSignal.timeout(15_000),
            }).catch(() => null);
            await response?.arrayBuffer().catch(() => undefined);
            if (response?.status === 200) {
              during ??= onFirstAccepted?.() ?? Promise.resolve();
              return true;
            }
            retried += 1;
            await new Promise((resolve) => setTimeout(resolve, 300));
            return false;
          },
          120_000,
          `a delivery to ${path} to be accepted`,
        );
      }
    }),
  );
  await during;
  return { deliveries: deliveries.length, retried };
}

/**
 * A person with an account whose e-mail is confirmed (the link from the mailbox), signed in:
 * what a buyer needs to manage their subscriptions.
 */
export async function verifiedAccount(cluster: Cluster, email: string): Promise<Browser> {
  const person = browser(cluster.baseUrl);
  const password = `Chaos-${randomBytes(8).toString('hex')}`;
  await person.json('/api/auth/sign-up', {
    email,
    password,
    fullName: 'Chaos Buyer',
    acceptTerms: true,
  });
  const token = await waitUntil(
    async () => {
      const { rows } = await cluster.db.query<{ text_body: string }>(
        `SELECT text_body FROM mailbox.messages WHERE lower(recipient) = lower($1) ORDER BY id DESC`,
        [email],
      );
      for (const { text_body: body } of rows) {
        const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(body);
        if (match) return match[1]!;
      }
      return null;
    },
    (found) => found !== null,
    30_000,
  );
  await person.json('/api/auth/verify-email', { token });
  // A session opened after the confirmation carries it.
  await person.json('/api/auth/sign-in', { email, password });
  return person;
}
