import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
} from './support.js';

/**
 * Issue 29: the product page names the seller — their store's name, else their full name as
 * identity announced it (user.signed_up, profile.updated); user.deleted forgets it.
 */
let harness: CatalogHarness;
beforeAll(async () => {
  harness = await createCatalogHarness();
});
afterAll(() => harness?.close());

describe("the seller's name on a product", () => {
  it('follows sign-up and profile changes, newest wins, the store name first, gone with the account', async () => {
    const seller = await harness.seller({ plan: 'pro' });
    const product = await makeProduct(harness, seller);
    await publish(harness, seller, product.id);
    const sellerName = async () =>
      (await harness.app.inject({ url: `/api/products/${product.id}` })).json().sellerName;
    expect(await sellerName()).toBeNull();

    const bus = await harness.connectBus();
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1_000);
    await bus.publish(
      createEvent(
        'user.signed_up',
        { userId: seller.id, email: 'ada@example.com', fullName: 'Ada Obi' },
        { correlationId: 'test', occurredAt: at(60) },
      ),
    );
    await waitUntil(sellerName, (name) => name === 'Ada Obi');
    const profile = (fullName: string, occurredAt: Date, userId = seller.id) =>
      bus.publish(
        createEvent(
          'profile.updated',
          {
            userId,
            email: 'ada@example.com',
            emailVerified: true,
            fullName,
            avatarUrl: null,
            plan: 'free',
          },
          { correlationId: 'test', occurredAt },
        ),
      );
    await profile('Ada O. Obi', at(10));
    await waitUntil(sellerName, (name) => name === 'Ada O. Obi');
    await profile('Ada Obi-Eze', at(1));
    await waitUntil(sellerName, (name) => name === 'Ada Obi-Eze');
    // An older change arriving late changes nothing: once a later event on the same consumer
    // (another seller's) has been applied, the late one has been too.
    const marker = await harness.seller();
    const markerProduct = await makeProduct(harness, marker);
    await publish(harness, marker, markerProduct.id);
    await profile('Stale Name', at(30));
    await profile('Marker Seller', new Date(), marker.id);
    await waitUntil(
      async () =>
        (await harness.app.inject({ url: `/api/products/${markerProduct.id}` })).json().sellerName,
      (name) => name === 'Marker Seller',
    );
    expect(await sellerName()).toBe('Ada Obi-Eze');

    // A store name (saved on a plan with branding) is what buyers see.
    const brand = await harness.app.inject({
      method: 'PUT',
      url: '/api/brand',
      headers: seller.auth,
      payload: { handle: `ada-${Date.now().toString(36)}`, name: 'Ada Prints' },
    });
    expect(brand.statusCode).toBe(200);
    expect(await sellerName()).toBe('Ada Prints');

    const other = await harness.seller();
    const theirs = await makeProduct(harness, other);
    await publish(harness, other, theirs.id);
    await bus.publish(
      createEvent(
        'user.signed_up',
        { userId: other.id, email: 'bo@example.com', fullName: 'Bo Lee' },
        { correlationId: 'test', occurredAt: new Date() },
      ),
    );
    const theirName = async () =>
      (await harness.app.inject({ url: `/api/products/${theirs.id}` })).json().sellerName;
    await waitUntil(theirName, (name) => name === 'Bo Lee');
    await bus.publish(createEvent('user.deleted', { userId: other.id }, { correlationId: 'test' }));
    await waitUntil(theirName, (name) => name === null);
    // One seller's name never shows on another's product.
    expect(await sellerName()).toBe('Ada Prints');
  });
});
