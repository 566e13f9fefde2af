import { createEvent } from '@lockdrop/contracts';
import { startFakeDns, type FakeDns } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from './support.js';

const EDGE_HOST = 'edge.lockdrop.test';
const EDGE_ADDRESS = '203.0.113.7';

let harness: CatalogHarness;
let dns: FakeDns;

beforeAll(async () => {
  dns = await startFakeDns();
  dns.set(EDGE_HOST, [{ type: 'A', name: EDGE_HOST, address: EDGE_ADDRESS }]);
  harness = await createCatalogHarness({
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '200',
    EDGE_HOST,
    EDGE_ADDRESSES: EDGE_ADDRESS,
    DOMAIN_FAILED_CHECKS_BEFORE_PAUSE: '2',
  });
});
afterAll(async () => {
  await harness?.close();
  await dns?.close();
});

let counter = 0;
const fresh = (what: string) => `${what}-${process.pid}-${++counter}`;

async function businessStore(plan: 'business' | 'pro' = 'business'): Promise<Seller> {
  const seller = await harness.seller({ plan });
  const brand = await harness.app.inject({
    method: 'PUT',
    url: '/api/brand',
    headers: seller.auth,
    payload: { handle: fresh('store'), name: 'Dawn Recordings' },
  });
  expect(brand.statusCode).toBe(200);
  return seller;
}

const addDomain = (seller: Seller, host: string) =>
  harness.app.inject({
    method: 'PUT',
    url: '/api/domain',
    headers: seller.auth,
    payload: { host },
  });
const verifyNow = (seller: Seller) =>
  harness.app.inject({ method: 'POST', url: '/api/domain/verify', headers: seller.auth });
const settingsOf = async (seller: Seller) =>
  (await harness.app.inject({ url: '/api/domain', headers: seller.auth })).json();
const routeOf = (host: string) => harness.app.inject({ url: `/internal/domains/${host}` });

/** The seller's records as the DNS host publishes them: token TXT and a CNAME to the edge. */
function publishRecords(host: string, token: string) {
  dns.set(`_lockdrop.${host}`, [
    { type: 'TXT', name: `_lockdrop.${host}`, strings: [`lockdrop-verify=${token}`] },
  ]);
  dns.set(host, [{ type: 'CNAME', name: host, target: EDGE_HOST }]);
}

async function connectedDomain(seller: Seller, host = `${fresh('shop')}.example.com`) {
  const added = await addDomain(seller, host);
  expect(added.statusCode).toBe(200);
  const txt = added.json().domain.records.find((r: { type: string }) => r.type === 'TXT');
  return { host, token: String(txt.value).replace('lockdrop-verify=', '') };
}

describe('adding a custom domain', () => {
  it('is for Business stores with a handle; the screen gets the records to create', async () => {
    const pro = await businessStore('pro');
    const refused = await addDomain(pro, 'shop.example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('plan_upgrade_required');
    expect(refused.json().error.message).toContain('Business');

    const noHandle = await harness.seller({ plan: 'business' });
    const needsHandle = await addDomain(noHandle, 'shop2.example.com');
    expect([needsHandle.statusCode, needsHandle.json().error.code]).toEqual([
      409,
      'store_handle_required',
    ]);

    const seller = await businessStore();
    const label = fresh('shop');
    const added = await addDomain(seller, `https://${label.toUpperCase()}.Example.com./`);
    expect(added.statusCode).toBe(200);
    const host = `${label}.example.com`;
    const { domain } = added.json();
    expect(domain).toMatchObject({ host, status: 'pending', apex: false, lastCheck: null });
    expect(domain.records).toEqual([
      {
        type: 'TXT',
        name: `_lockdrop.${host}`,
        value: expect.stringMatching(/^lockdrop-verify=[0-9a-f]{32}$/),
        purpose: 'ownership',
      },
      { type: 'CNAME', name: host, value: EDGE_HOST, purpose: 'routing' },
    ]);
    const events = await harness.outbox('store.domain_updated');
    expect(events.map((event) => event.data)).toContainEqual({
      sellerId: seller.id,
      host,
      status: 'pending',
    });
    // Pending: the gateway is told the store but not to serve it.
    expect((await routeOf(host)).json()).toMatchObject({ sellerId: seller.id, serving: false });

    const apex = await businessStore();
    const apexHost = `${fresh('brand')}.com`;
    const apexDomain = (await addDomain(apex, apexHost)).json().domain;
    expect(apexDomain.apex).toBe(true);
    expect(apexDomain.records[1]).toEqual({
      type: 'A',
      name: apexHost,
      value: EDGE_ADDRESS,
      purpose: 'routing',
    });
  });

  it('refuses what cannot be a store’s own domain, saying why', async () => {
    const seller = await businessStore();
    for (const host of [
      '203.0.113.9',
      'intranet',
      'shop.localhost',
      EDGE_HOST,
      'x.localhost:8080',
    ]) {
      const response = await addDomain(seller, host);
      expect([host, response.statusCode, response.json().error.code]).toEqual([
        host,
        400,
        'invalid_domain',
      ]);
    }
  });

  it('gives one host to one store: a taken host is refused with a clear error', async () => {
    const alice = await businessStore();
    const bob = await businessStore();
    const { host } = await connectedDomain(alice);
    const taken = await addDomain(bob, host.toUpperCase());
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toEqual({
      code: 'domain_taken',
      message: `${host} is already connected to another store`,
    });
    // Bob never sees nor changes Alice's domain through his own settings.
    expect((await settingsOf(bob)).domain).toBeNull();
    expect((await verifyNow(bob)).statusCode).toBe(404);
    expect(
      (await harness.app.inject({ method: 'DELETE', url: '/api/domain', headers: bob.auth }))
        .statusCode,
    ).toBe(404);
    expect((await settingsOf(alice)).domain.host).toBe(host);
  });
});

describe("a store's team (issue 28)", () => {
  it('lets an admin acting for the store connect, verify and disconnect its domain, and refuses the other roles', async () => {
    const seller = await businessStore();
    const admin = await harness.member(seller, 'admin');
    const host = `${fresh('team')}.example.com`;
    const added = await addDomain(admin, host);
    expect(added.statusCode, added.body).toBe(200);
    // The store's domain (the seller account's): its owner sees what the admin connected.
    expect((await settingsOf(seller)).domain).toMatchObject({ host, status: 'pending' });
    expect((await verifyNow(admin)).statusCode).toBe(200);

    const answers: Record<string, number[]> = {};
    for (const role of ['editor', 'support', 'accountant'] as const) {
      const member = await harness.member(seller, role);
      const read = await harness.app.inject({ url: '/api/domain', headers: member.auth });
      const change = await addDomain(member, `${fresh('not-theirs')}.example.com`);
      const removal = await harness.app.inject({
        method: 'DELETE',
        url: '/api/domain',
        headers: member.auth,
      });
      expect(read.json().error?.code).toBe('not_allowed_for_role');
      answers[role] = [read.statusCode, change.statusCode, removal.statusCode];
    }
    const refused = [403, 403, 403];
    expect(answers).toEqual({ editor: refused, support: refused, accountant: refused });
    expect((await settingsOf(seller)).domain.host).toBe(host);

    const removed = await harness.app.inject({
      method: 'DELETE',
      url: '/api/domain',
      headers: admin.auth,
    });
    expect(removed.statusCode).toBe(204);
    expect((await settingsOf(seller)).domain).toBeNull();
  });
});

describe('verifying against a DNS that misbehaves', () => {
  it('verifies a TXT split in several strings among other records, in another case, through a CNAME chain', async () => {
    const seller = await businessStore();
    const { host, token } = await connectedDomain(seller);

    const nothing = (await verifyNow(seller)).json().domain;
    expect(nothing).toMatchObject({
      status: 'pending',
      lastCheck: { ownership: 'missing', routing: 'missing' },
    });
    expect(nothing.lastCheck.message).toContain('TXT record was not found yet');

    const half = Math.floor(token.length / 2);
    dns.set(`_lockdrop.${host}`, [
      { type: 'TXT', name: `_LockDrop.${host.toUpperCase()}`, strings: ['v=spf1 -all'] },
      {
        type: 'TXT',
        name: `_lockdrop.${host}`,
        strings: [`LOCKDROP-VERIFY=${token.slice(0, half).toUpperCase()}`, `${token.slice(half)} `],
      },
      { type: 'TXT', name: `_lockdrop.${host}`, strings: ['another-service-verification=1'] },
    ]);
    dns.set(host, [{ type: 'CNAME', name: host, target: `cdn.${host}` }]);
    dns.set(`cdn.${host}`, [{ type: 'CNAME', name: `cdn.${host}`, target: 'EDGE.Lockdrop.TEST.' }]);

    const verified = (await verifyNow(seller)).json().domain;
    expect(verified).toMatchObject({
      status: 'verified',
      lastCheck: { ownership: 'ok', routing: 'ok' },
      verifiedAt: expect.any(String),
    });
    expect((await routeOf(host)).json()).toMatchObject({ sellerId: seller.id, serving: true });
    const events = await harness.outbox('store.domain_updated');
    expect(events.map((event) => event.data)).toContainEqual({
      sellerId: seller.id,
      host,
      status: 'verified',
    });
  });

  it('refuses another store’s token and a CNAME pointing elsewhere', async () => {
    const seller = await businessStore();
    const { host } = await connectedDomain(seller);
    dns.set(`_lockdrop.${host}`, [
      { type: 'TXT', name: `_lockdrop.${host}`, strings: [`lockdrop-verify=${'0'.repeat(32)}`] },
    ]);
    dns.set(host, [{ type: 'CNAME', name: host, target: 'elsewhere.example.net' }]);
    const domain = (await verifyNow(seller)).json().domain;
    expect(domain).toMatchObject({
      status: 'pending',
      lastCheck: { ownership: 'wrong', routing: 'wrong' },
    });
    expect((await routeOf(host)).json().serving).toBe(false);
  });

  it('verifies the root of a domain by its A records, and only when every address is the edge’s', async () => {
    const seller = await businessStore();
    const host = `${fresh('brand')}.com`;
    const { token } = await connectedDomain(seller, host);
    dns.set(`_lockdrop.${host}`, [
      { type: 'TXT', name: `_lockdrop.${host}`, strings: [`lockdrop-verify=${token}`] },
    ]);
    dns.set(host, [
      { type: 'A', name: host, address: EDGE_ADDRESS },
      { type: 'A', name: host, address: '198.51.100.1' },
    ]);
    expect((await verifyNow(seller)).json().domain.lastCheck.routing).toBe('wrong');
    dns.set(host, [{ type: 'A', name: host, address: EDGE_ADDRESS }]);
    expect((await verifyNow(seller)).json().domain.status).toBe('verified');
  });

  it('changes nothing when DNS fails (SERVFAIL, timeout) and sees new records only once a stale answer expires', async () => {
    const seller = await businessStore();
    const { host, token } = await connectedDomain(seller);
    try {
      dns.behave({ kind: 'stale' });
      publishRecords(host, token);
      expect((await verifyNow(seller)).json().domain.status).toBe('pending');

      for (const kind of ['servfail', 'timeout'] as const) {
        dns.behave({ kind });
        const response = await verifyNow(seller);
        expect([kind, response.statusCode]).toEqual([kind, 200]);
        expect(response.json().domain).toMatchObject({
          status: 'pending',
          lastCheck: { ownership: 'missing' },
        });
        expect(response.json().domain.lastCheck.message).toContain('could not ask DNS');
      }
    } finally {
      dns.behave({ kind: 'ok' });
    }
    expect((await verifyNow(seller)).json().domain.status).toBe('verified');
  });
});

describe('the periodic re-check', () => {
  const recheck = async (dueAt: Date) => {
    const bus = await harness.connectBus();
    await bus.publish(
      createEvent('domains.recheck_due', { dueAt: dueAt.toISOString() }, { correlationId: 'test' }),
    );
  };
  const mailTo = async (email: string) =>
    (
      await harness.pool.query<{ subject: string; text_body: string }>(
        'SELECT subject, text_body FROM mailbox.messages WHERE recipient = $1',
        [email],
      )
    ).rows;

  it('pauses a domain that stopped verifying after the failures in a row, e-mails the seller, and resumes it', async () => {
    const email = `${fresh('owner')}@example.com`;
    const seller = await harness.seller({ plan: 'business', email });
    await harness.app.inject({
      method: 'PUT',
      url: '/api/brand',
      headers: seller.auth,
      payload: { handle: fresh('store'), name: 'Dawn Recordings' },
    });
    const { host, token } = await connectedDomain(seller);
    publishRecords(host, token);
    expect((await verifyNow(seller)).json().domain.status).toBe('verified');

    dns.clear(`_lockdrop.${host}`);
    const checkedAfter = async (since: number) =>
      waitUntil(
        () => settingsOf(seller),
        (settings) => Date.parse(settings.domain.lastCheckedAt) >= since,
      );

    // DNS down during a firing: not a failure of the seller's records.
    dns.behave({ kind: 'servfail' });
    let since = Date.now();
    await recheck(new Date());
    await checkedAfter(since);
    dns.behave({ kind: 'ok' });
    expect((await settingsOf(seller)).domain.status).toBe('verified');

    since = Date.now();
    await recheck(new Date());
    const once = await checkedAfter(since);
    expect(once.domain).toMatchObject({ status: 'verified', lastCheck: { ownership: 'missing' } });
    expect(await mailTo(email)).toEqual([]);

    since = Date.now();
    await recheck(new Date());
    const twice = await checkedAfter(since);
    expect(twice.domain.status).toBe('paused');
    expect((await routeOf(host)).json().serving).toBe(false);
    const mail = await waitUntil(
      () => mailTo(email),
      (messages) => messages.length > 0,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Your domain ${host} is paused`);
    expect(mail[0]!.text_body).toContain('/settings#domain');
    expect((await harness.outbox('store.domain_updated')).map((e) => e.data)).toContainEqual({
      sellerId: seller.id,
      host,
      status: 'paused',
    });

    publishRecords(host, token);
    expect((await verifyNow(seller)).json().domain.status).toBe('verified');
    expect((await routeOf(host)).json().serving).toBe(true);
  });

  it('stops serving when the seller’s plan no longer includes a custom domain', async () => {
    const seller = await businessStore();
    const product = await makeProduct(harness, seller);
    await publish(harness, seller, product.id);
    const { host, token } = await connectedDomain(seller);
    // The product's and the store's public reads name the domain only while it serves.
    const storeDomainOf = async () =>
      (await harness.app.inject({ url: `/api/products/${product.id}` })).json().storeDomain;
    expect(await storeDomainOf()).toBeNull();
    publishRecords(host, token);
    expect((await verifyNow(seller)).json().domain.status).toBe('verified');
    expect(await storeDomainOf()).toBe(host);
    const bus = await harness.connectBus();
    await bus.publish(
      createEvent(
        'plan.changed',
        { userId: seller.id, plan: 'pro', previousPlan: 'business' },
        { correlationId: 'test' },
      ),
    );
    await waitUntil(
      async () => (await routeOf(host)).json().serving,
      (serving) => serving === false,
    );
    expect(await storeDomainOf()).toBeNull();
  });
});
