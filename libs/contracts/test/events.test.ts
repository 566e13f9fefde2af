import { describe, expect, it } from 'vitest';
import { InvalidEventError, createEvent, parseEvent } from '../src/index.js';

/** `purchase.paid` as the first producers sent it (v1): no checkout, file or receipt fields. */
const paidV1 = {
  purchaseId: '0d9c8b1e-5b4a-4f43-9a36-0f6c2b9e1a11',
  productId: '7a1f3e2d-4c5b-4a69-8e7d-6c5b4a3f2e10',
  sellerId: '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b',
  buyerEmail: 'buyer@example.com',
  txRef: 'ld_tx_01',
  amountMinor: 500000,
  currency: 'NGN',
  feePlatformMinor: 25000,
  feeProcessorMinor: 7000,
  paidAt: '2026-11-22T10:00:00.000Z',
};

const paid = {
  ...paidV1,
  sellerEarningsMinor: 468000,
  checkoutId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  productTitle: 'Lagos at dusk',
  fileId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  fileName: 'dusk.zip',
  provider: 'flutterwave',
  receiptTokenHash: 'a'.repeat(64),
  buyerBrowserKeyHash: null,
  subscription: null,
};

describe('event contracts', () => {
  it('builds an envelope that survives the trip through JSON', () => {
    const event = createEvent('purchase.paid', paid, { correlationId: 'req-1' });
    expect(event).toMatchObject({
      type: 'purchase.paid',
      version: 2,
      correlationId: 'req-1',
      data: paid,
    });
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('refuses to create an event whose data breaks its schema', () => {
    expect(() =>
      createEvent('purchase.paid', { ...paid, amountMinor: 50.5 }, { correlationId: 'req-1' }),
    ).toThrow();
  });

  it('rejects unknown types, unsupported versions and bad data on the way in', () => {
    const event = createEvent('purchase.paid', paid, { correlationId: 'req-1' });
    expect(() => parseEvent({ ...event, type: 'purchase.teleported' })).toThrow(InvalidEventError);
    expect(() => parseEvent({ ...event, version: 3 })).toThrow(/not supported/);
    expect(() => parseEvent({ ...event, data: { ...paid, buyerEmail: 'nope' } })).toThrow(
      InvalidEventError,
    );
    expect(() => parseEvent('garbage')).toThrow(/bad envelope/);
  });

  it('reads a v1 purchase.paid still in the stream as v2, with what v1 lacked made explicit', () => {
    const v1 = { ...createEvent('purchase.paid', paid, { correlationId: 'req-1' }), version: 1 };
    const event = parseEvent({ ...v1, data: paidV1 });
    expect(event.version).toBe(2);
    expect(event.data).toEqual({
      ...paidV1,
      sellerEarningsMinor: 500000 - 25000 - 7000,
      checkoutId: null,
      productTitle: null,
      fileId: null,
      fileName: null,
      provider: null,
      receiptTokenHash: null,
      buyerBrowserKeyHash: null,
      subscription: null,
    });
    // A v1 event keeps the fields its later producers did send.
    expect(parseEvent({ ...v1, data: { ...paidV1, fileId: paid.fileId } }).data).toMatchObject({
      fileId: paid.fileId,
    });
    expect(() => parseEvent({ ...v1, data: { ...paidV1, amountMinor: -1 } })).toThrow(
      /bad purchase.paid v1 data/,
    );
  });

  it('refuses a v2 purchase.paid that leaves out a field v2 requires', () => {
    const event = createEvent('purchase.paid', paid, { correlationId: 'req-1' });
    const { checkoutId: _dropped, ...withoutCheckout } = paid;
    expect(() => parseEvent({ ...event, data: withoutCheckout })).toThrow(InvalidEventError);
  });
});
