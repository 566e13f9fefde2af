import { crc32, deflateSync } from 'node:zlib';
import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from './support.js';

let harness: CatalogHarness;
let deliveryUrl: string;

beforeAll(async () => {
  harness = await createCatalogHarness();
  deliveryUrl = harness.env.DELIVERY_URL!;
});
afterAll(() => harness?.close());

/** A solid-colour RGBA PNG of `width` × `height`, built by hand (no image library in tests). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0xc0)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const pngSize = (bytes: Buffer) => ({
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
});

async function uploadLogo(seller: Seller, bytes: Buffer, name = 'logo.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(new URL('/api/brand-logos', deliveryUrl), {
    method: 'POST',
    headers: seller.auth,
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { logoId: string; logoUrl: string; error: { code: string } },
  };
}

const putBrand = (seller: Seller, payload: Record<string, unknown>) =>
  harness.app.inject({ method: 'PUT', url: '/api/brand', headers: seller.auth, payload });

let handles = 0;
const freshHandle = () => `store-${process.pid}-${++handles}`;

describe('a Pro seller’s brand', () => {
  it('is saved with a resized logo and shown on their published product and store page', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const logo = await uploadLogo(seller, png(1000, 500));
    expect(logo.status).toBe(201);
    expect(logo.body).toMatchObject({ width: 256, height: 128 });
    const stored = await fetch(new URL(logo.body.logoUrl, deliveryUrl));
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await stored.arrayBuffer()))).toEqual({ width: 256, height: 128 });

    const handle = freshHandle();
    const saved = await putBrand(seller, {
      handle: handle.toUpperCase(),
      name: 'Dawn Recordings',
      accentColour: '#1D4ED8',
      logoId: logo.body.logoId,
    });
    expect(saved.statusCode).toBe(200);
    const brand = {
      handle,
      name: 'Dawn Recordings',
      logoUrl: logo.body.logoUrl,
      accentColour: '#1d4ed8',
    };
    expect(saved.json()).toEqual({
      brand: { ...brand, logoId: logo.body.logoId },
      plan: 'pro',
      brandingIncluded: true,
      brandingPlan: 'pro',
    });
    const events = await harness.outbox('store.brand_updated');
    expect(events.filter((event) => event.data.sellerId === seller.id).map((e) => e.data)).toEqual([
      { sellerId: seller.id, brand },
    ]);

    const product = await makeProduct(harness, seller);
    const draft = await makeProduct(harness, seller, { title: 'Unreleased' });
    await publish(harness, seller, product.id);
    const read = await harness.app.inject({ url: `/api/products/${product.id}` });
    expect(read.json().brand).toEqual(brand);

    const store = await harness.app.inject({ url: `/api/stores/${handle}` });
    expect(store.statusCode).toBe(200);
    expect(store.json().brand).toEqual(brand);
    expect(store.json().products.map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect(store.json().products.map((p: { id: string }) => p.id)).not.toContain(draft.id);
  });

  it('refuses an accent colour below 4.5:1 against white, saying why and the measured ratio', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const yellow = await putBrand(seller, {
      handle: freshHandle(),
      name: 'Sun',
      accentColour: '#ffcc00',
    });
    expect(yellow.statusCode).toBe(400);
    expect(yellow.json().error.code).toBe('accent_colour_contrast');
    expect(yellow.json().error.message).toContain('1.51:1');
    expect(yellow.json().error.message).toContain('4.5:1');

    // #777777 measures 4.478:1 (shown rounded down), just short; #767676 measures 4.54:1.
    const justShort = await putBrand(seller, {
      handle: freshHandle(),
      name: 'Grey',
      accentColour: '#777777',
    });
    expect(justShort.statusCode).toBe(400);
    expect(justShort.json().error.message).toContain('4.47:1');
    const justEnough = await putBrand(seller, {
      handle: freshHandle(),
      name: 'Grey',
      accentColour: '#767676',
    });
    expect(justEnough.statusCode).toBe(200);

    const notHex = await putBrand(seller, {
      handle: freshHandle(),
      name: 'Red',
      accentColour: 'red',
    });
    expect(notHex.json().error.code).toBe('invalid_accent_colour');
  });

  it('refuses reserved, malformed and taken handles', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const other = await harness.seller({ plan: 'business' });
    const reserved = await putBrand(seller, { handle: 'Lockdrop', name: 'Not us' });
    expect([reserved.statusCode, reserved.json().error.code]).toEqual([400, 'handle_reserved']);
    for (const handle of ['ab', 'dawn recordings', '-dawn', 'dawn-', 'da--wn', 'x'.repeat(31)]) {
      const refused = await putBrand(seller, { handle, name: 'Dawn' });
      expect([handle, refused.json().error.code]).toEqual([handle, 'invalid_handle']);
    }
    const handle = freshHandle();
    expect((await putBrand(other, { handle, name: 'First' })).statusCode).toBe(200);
    const taken = await putBrand(seller, { handle, name: 'Second' });
    expect([taken.statusCode, taken.json().error.code]).toEqual([409, 'handle_taken']);
  });

  it('names only a logo the seller uploaded', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const other = await harness.seller({ plan: 'pro' });
    const theirs = await uploadLogo(other, png(64, 64));
    const borrowed = await putBrand(seller, {
      handle: freshHandle(),
      name: 'Borrowed',
      logoId: theirs.body.logoId,
    });
    expect([borrowed.statusCode, borrowed.json().error.code]).toEqual([400, 'logo_not_found']);

    const notAnImage = await uploadLogo(seller, Buffer.from('<?php echo 1; ?>'), 'logo.png');
    expect([notAnImage.status, notAnImage.body.error.code]).toEqual([400, 'invalid_image']);
  });
});

describe('a seller below Pro', () => {
  it('cannot save a brand or upload a logo, and is told which plan unlocks it', async () => {
    const seller = await harness.seller({ plan: 'starter' });
    const settings = await harness.app.inject({ url: '/api/brand', headers: seller.auth });
    expect(settings.json()).toEqual({
      brand: null,
      plan: 'starter',
      brandingIncluded: false,
      brandingPlan: 'pro',
    });
    const saved = await putBrand(seller, { handle: freshHandle(), name: 'Mine' });
    expect([saved.statusCode, saved.json().error.code]).toEqual([403, 'plan_upgrade_required']);
    expect(saved.json().error.message).toContain('Pro');
    const logo = await uploadLogo(seller, png(32, 32));
    expect([logo.status, logo.body.error.code]).toEqual([403, 'plan_upgrade_required']);
  });

  it('loses the branded look when billing moves the seller off Pro, and regains it', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const handle = freshHandle();
    expect(
      (await putBrand(seller, { handle, name: 'Fading', accentColour: '#0f766e' })).statusCode,
    ).toBe(200);
    const product = await makeProduct(harness, seller);
    await publish(harness, seller, product.id);
    const brandOf = async () =>
      (await harness.app.inject({ url: `/api/products/${product.id}` })).json().brand;
    expect(await brandOf()).not.toBeNull();

    const bus = await harness.connectBus();
    const planChanged = (plan: 'free' | 'pro', previousPlan: 'free' | 'pro', at: Date) =>
      bus.publish(
        createEvent(
          'plan.changed',
          { userId: seller.id, plan, previousPlan },
          { correlationId: 'test', occurredAt: at },
        ),
      );
    await planChanged('free', 'pro', new Date(Date.now() - 1_000));
    await waitUntil(brandOf, (brand) => brand === null);
    const store = await harness.app.inject({ url: `/api/stores/${handle}` });
    expect(store.json().brand).toBeNull();
    // An older announcement arriving late changes nothing.
    await planChanged('pro', 'free', new Date(Date.now() - 60_000));
    await planChanged('pro', 'free', new Date());
    await waitUntil(brandOf, (brand) => brand !== null);
  });
});

describe('who may touch a brand', () => {
  it('answers 401 without a session and only ever acts on the caller’s own store', async () => {
    for (const [method, url] of [
      ['GET', '/api/brand'],
      ['PUT', '/api/brand'],
    ] as const) {
      const response = await harness.app.inject({
        method,
        url,
        payload: method === 'PUT' ? { handle: 'valid-handle', name: 'Anyone' } : undefined,
      });
      expect([url, response.statusCode]).toEqual([url, 401]);
    }
    const anonymousLogo = await fetch(new URL('/api/brand-logos', deliveryUrl), { method: 'POST' });
    expect(anonymousLogo.status).toBe(401);

    const alice = await harness.seller({ plan: 'pro' });
    const bob = await harness.seller({ plan: 'pro' });
    const handle = freshHandle();
    await putBrand(alice, { handle, name: 'Alice' });
    expect((await putBrand(bob, { handle: freshHandle(), name: 'Bob' })).statusCode).toBe(200);
    const alices = await harness.app.inject({ url: '/api/brand', headers: alice.auth });
    expect(alices.json().brand).toMatchObject({ handle, name: 'Alice' });
  });
});

describe("a store's team (issue 28)", () => {
  it('lets an admin acting for the store read and save its brand and upload its logo, and refuses the other roles', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const admin = await harness.member(seller, 'admin');
    const logo = await uploadLogo(admin, png(300, 300));
    expect(logo.status).toBe(201);
    const handle = freshHandle();
    const saved = await putBrand(admin, {
      handle,
      name: 'Team Store',
      accentColour: '#1d4ed8',
      logoId: logo.body.logoId,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The store's brand (the seller account's), which its owner reads.
    const owners = await harness.app.inject({ url: '/api/brand', headers: seller.auth });
    expect(owners.json().brand).toMatchObject({
      handle,
      name: 'Team Store',
      logoId: logo.body.logoId,
    });
    const admins = await harness.app.inject({ url: '/api/brand', headers: admin.auth });
    expect(admins.statusCode).toBe(200);
    expect(admins.json().brand).toEqual(owners.json().brand);

    // The other roles (a read-only member acts as an accountant) reach none of it.
    const answers: Record<string, [number, string][]> = {};
    for (const role of ['editor', 'support', 'accountant'] as const) {
      const member = await harness.member(seller, role);
      const read = await harness.app.inject({ url: '/api/brand', headers: member.auth });
      const save = await putBrand(member, { handle: freshHandle(), name: 'Not theirs' });
      const upload = await uploadLogo(member, png(300, 300));
      answers[role] = [
        [read.statusCode, read.json().error?.code],
        [save.statusCode, save.json().error?.code],
        [upload.status, upload.body.error?.code],
      ];
    }
    const refused = Array.from({ length: 3 }, () => [403, 'not_allowed_for_role']);
    expect(answers).toEqual({ editor: refused, support: refused, accountant: refused });
    const unchanged = await harness.app.inject({ url: '/api/brand', headers: seller.auth });
    expect(unchanged.json().brand).toMatchObject({ handle, name: 'Team Store' });

    // The store's audit log hears who saved it: the admin, not the store.
    const audited = (await harness.outbox('audit.catalog_action')).filter(
      (event) => event.data.storeId === seller.id,
    );
    expect(audited.map((event) => event.data)).toEqual([
      {
        storeId: seller.id,
        actorId: admin.actorId,
        action: 'brand.updated',
        target: handle,
        details: {
          handle,
          name: 'Team Store',
          accentColour: '#1d4ed8',
          logoId: logo.body.logoId,
        },
        ip: '127.0.0.1',
        userAgent: 'lightMyRequest',
      },
    ]);
  });
});

describe('the store page', () => {
  it('is a real 404 for an unknown or malformed handle', async () => {
    for (const handle of ['nobody-here-123', 'admin', 'a'.repeat(64)]) {
      const response = await harness.app.inject({ url: `/api/stores/${handle}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('store_not_found');
    }
  });
});
