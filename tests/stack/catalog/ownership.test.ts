import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  type CatalogHarness,
  type Seller,
} from './support.js';

// Who may do what to a product. Decision: a product the caller cannot see (someone else's draft,
// a deleted or unknown id) is 404 for every verb, so drafts never leak their existence; a
// published product someone else owns is readable by all and 403 for every change.
let harness: CatalogHarness;
let alice: Seller;
let bob: Seller;
let draftId: string;
let publishedId: string;

beforeAll(async () => {
  harness = await createCatalogHarness();
  alice = await harness.seller();
  bob = await harness.seller();
  draftId = (await makeProduct(harness, alice, { title: 'Alice draft' })).id;
  publishedId = (await makeProduct(harness, alice, { title: 'Alice live' })).id;
  await publish(harness, alice, publishedId);
});
afterAll(() => harness?.close());

type Verb = 'read' | 'edit' | 'toggle' | 'delete';

const attempt = (verb: Verb, id: string, headers: Record<string, string> = {}) => {
  switch (verb) {
    case 'read':
      return harness.app.inject({ url: `/api/products/${id}`, headers });
    case 'edit':
      return harness.app.inject({
        method: 'PATCH',
        url: `/api/products/${id}`,
        headers,
        payload: { title: 'Hijacked' },
      });
    case 'toggle':
      return harness.app.inject({
        method: 'POST',
        url: `/api/products/${id}/status`,
        headers,
        payload: { status: 'draft' },
      });
    case 'delete':
      return harness.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers });
  }
};

describe('another seller', () => {
  it.each<[Verb, 'draft' | 'published', number, string]>([
    ['read', 'draft', 404, 'product_not_found'],
    ['edit', 'draft', 404, 'product_not_found'],
    ['toggle', 'draft', 404, 'product_not_found'],
    ['delete', 'draft', 404, 'product_not_found'],
    ['edit', 'published', 403, 'forbidden'],
    ['toggle', 'published', 403, 'forbidden'],
    ['delete', 'published', 403, 'forbidden'],
  ])('%s on my %s product → %i %s', async (verb, which, status, code) => {
    const response = await attempt(verb, which === 'draft' ? draftId : publishedId, bob.auth);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
  });

  it('can read my published product, not as its owner', async () => {
    const response = await attempt('read', publishedId, bob.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json().viewerIsOwner).toBe(false);
  });

  it('sees only their own products in /mine', async () => {
    const own = await makeProduct(harness, bob, { title: 'Bob only' });
    const response = await harness.app.inject({ url: '/api/products/mine', headers: bob.auth });
    expect(response.json().products.map((p: { id: string }) => p.id)).toEqual([own.id]);
  });

  it('changed nothing and caused no event', async () => {
    const mine = await harness.app.inject({ url: '/api/products/mine', headers: alice.auth });
    const byId = Object.fromEntries(
      mine.json().products.map((p: { id: string; title: string; status: string }) => [p.id, p]),
    );
    expect(byId[draftId]).toMatchObject({ title: 'Alice draft', status: 'draft' });
    expect(byId[publishedId]).toMatchObject({ title: 'Alice live', status: 'published' });
    expect(await harness.outbox('product.updated')).toHaveLength(0);
    expect(await harness.outbox('product.unpublished')).toHaveLength(0);
    expect(await harness.outbox('product.deleted')).toHaveLength(0);
  });
});

describe('a signed-out visitor', () => {
  it.each<[Verb, 'draft' | 'published', number]>([
    ['read', 'draft', 404],
    ['read', 'published', 200],
    ['edit', 'published', 401],
    ['toggle', 'published', 401],
    ['delete', 'published', 401],
    ['edit', 'draft', 401],
  ])('%s on a %s product → %i', async (verb, which, status) => {
    expect((await attempt(verb, which === 'draft' ? draftId : publishedId)).statusCode).toBe(
      status,
    );
  });

  it('has no product list', async () => {
    expect((await harness.app.inject({ url: '/api/products/mine' })).statusCode).toBe(401);
  });

  it('is not let in by an invalid token', async () => {
    const response = await attempt('edit', publishedId, { authorization: 'Bearer not-a-token' });
    expect(response.statusCode).toBe(401);
  });
});

describe('ids that name no product', () => {
  it.each([
    ['an unknown uuid', '0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10'],
    ['a malformed id', 'nope'],
  ])('%s → 404 for owner and others alike', async (_case, id) => {
    for (const verb of ['read', 'edit', 'toggle', 'delete'] as const) {
      const response = await attempt(verb, id, alice.auth);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({
        code: 'product_not_found',
        message: 'Product not found',
      });
    }
  });
});

describe('the owner', () => {
  it.each<Verb>(['read', 'edit', 'toggle'])('may %s their draft', async (verb) => {
    expect((await attempt(verb, draftId, alice.auth)).statusCode).toBe(200);
  });
});
