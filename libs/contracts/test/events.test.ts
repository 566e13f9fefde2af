import { describe, expect, it } from 'vitest';
import { InvalidEventError, createEvent, parseEvent } from '../src/index.js';

const paid = {
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

describe('event contracts', () => {
  it('builds an envelope that survives the trip through JSON', () => {
    const event = createEvent('purchase.paid', paid, { correlationId: 'req-1' });
    expect(event).toMatchObject({
      type: 'purchase.paid',
      version: 1,
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
    expect(() => parseEvent({ ...event, version: 2 })).toThrow(/not supported/);
    expect(() => parseEvent({ ...event, data: { ...paid, buyerEmail: 'nope' } })).toThrow(
      InvalidEventError,
    );
    expect(() => parseEvent('garbage')).toThrow(/bad envelope/);
  });
});
