import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchJson,
  mailTo,
  sell,
  startHarness,
  waitFor,
  type Harness,
  type TestUser,
  callAs,
  newSeller,
} from './support.js';

/**
 * Issue 30, item 4: the first payout destination is protected like a change. Saving one needs
 * a recent proof of identity (`auth_time` within REAUTH_MAX_AGE_SECONDS), e-mails the seller,
 * and holds payouts for DESTINATION_CHANGE_HOLD_HOURS when money is already waiting.
 */
let harness: Harness;
const HOUR = 3_600_000;
const ADDED = 'A payout destination was added to your Lockdrop account';
const CHANGED = 'Your Lockdrop payout details were changed';

beforeAll(async () => {
  harness = await startHarness({
    REAUTH_MAX_AGE_SECONDS: '600',
    DESTINATION_CHANGE_HOLD_HOURS: '24',
  });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

/** The same account behind a session whose last sign-in was an hour ago (a stolen cookie). */
const stale = (seller: TestUser): TestUser => ({
  ...seller,
  authTime: new Date(Date.now() - HOUR),
});

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

const wise = (accountId: string) => ({
  method: 'wise',
  email: 'ada@example.com',
  accountId,
});

const subjectsTo = async (email: string) =>
  (await mailTo(harness.pool, email)).map((mail) => mail.subject);

/** A sale whose earnings are available now. */
async function availableSale(seller: TestUser) {
  const sale = await sell(harness, { ownerId: seller.id, currency: 'USD', priceMinor: 5_000 });
  await harness.pool.query(
    `UPDATE purchases SET paid_at = paid_at - interval '25 hours' WHERE id = $1`,
    [sale.purchaseId],
  );
  return sale;
}

describe('re-authentication before a payout destination is saved', () => {
  it('a session whose sign-in is older than the window cannot add the first destination; a fresh one can', async () => {
    const seller = newSeller();
    const refused = await call(stale(seller), 'PUT', '/api/payouts/destination', wise('48213377'));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: {
        code: 'reauthentication_required',
        message: "Please confirm it's you: enter your password (or code) again",
        details: { maxAgeSeconds: 600 },
      },
    });
    expect((await (await call(seller, 'GET', '/api/payouts/destination')).json()).destination).toBe(
      null,
    );

    const saved = await call(seller, 'PUT', '/api/payouts/destination', wise('48213377'));
    expect(saved.status).toBe(200);
    expect((await saved.json()).destination.accountIdMasked).toBe('•••• 3377');
  });

  it('a stolen session cannot change the destination; after re-authentication the change goes through', async () => {
    const seller = newSeller();
    await call(seller, 'PUT', '/api/payouts/destination', wise('48213377'));
    const hijack = await call(stale(seller), 'PUT', '/api/payouts/destination', wise('99990000'));
    expect(hijack.status).toBe(403);
    expect((await hijack.json()).error.code).toBe('reauthentication_required');
    const current = (await (await call(seller, 'GET', '/api/payouts/destination')).json())
      .destination;
    expect(current.accountIdMasked).toBe('•••• 3377');

    // A token without auth_time (minted before it existed) counts as not recent.
    const legacy = await call(
      { ...seller, authTime: null },
      'PUT',
      '/api/payouts/destination',
      wise('99990000'),
    );
    expect(legacy.status).toBe(403);
    const { rows } = await harness.pool.query(
      'SELECT count(*)::int AS n FROM payout_destinations WHERE seller_id = $1',
      [seller.id],
    );
    expect(rows[0].n).toBe(1);

    const changed = await call(seller, 'PUT', '/api/payouts/destination', wise('99990000'));
    expect(changed.status).toBe(200);
    expect((await changed.json()).destination.accountIdMasked).toBe('•••• 0000');
  });
});

describe('the e-mail and the hold', () => {
  it('adding a destination e-mails the seller once, with what to do if it was not them', async () => {
    const seller = newSeller();
    await call(seller, 'PUT', '/api/payouts/destination', wise('48213377'));
    await waitFor(async () => (await subjectsTo(seller.email)).includes(ADDED));
    // Watermark: the change's e-mail is queued after the first one; once it has arrived, a
    // duplicate of the first would have too.
    await call(seller, 'PUT', '/api/payouts/destination', wise('55556666'));
    await waitFor(async () => (await subjectsTo(seller.email)).includes(CHANGED));
    const mails = await mailTo(harness.pool, seller.email);
    expect(mails.map((mail) => mail.subject)).toEqual([ADDED, CHANGED]);
    expect(mails[0]!.text_body).toContain('Your payouts will go to Wise a•••@example.com');
    expect(mails[0]!.text_body).toContain('If this was not you');
    expect(mails[1]!.text_body).toContain('If this was not you');
    // A stolen session's refused attempt sends nothing: the next real change is the watermark.
    await call(stale(seller), 'PUT', '/api/payouts/destination', wise('77778888'));
    await call(seller, 'PUT', '/api/payouts/destination', wise('12121212'));
    await waitFor(async () => (await subjectsTo(seller.email)).length >= 3);
    expect(await subjectsTo(seller.email)).toEqual([ADDED, CHANGED, CHANGED]);
  });

  it('a first destination added while earnings wait holds payouts, shown with its end, then releases them', async () => {
    const seller = newSeller();
    await availableSale(seller);
    const saved = await call(seller, 'PUT', '/api/payouts/destination', wise('48213377'));
    const { destination } = await saved.json();
    const heldFor = Date.parse(destination.payoutsHeldUntil) - Date.now();
    expect(heldFor).toBeGreaterThan(23 * HOUR);
    expect(heldFor).toBeLessThanOrEqual(24 * HOUR);
    const shown = (await (await call(seller, 'GET', '/api/payouts/destination')).json())
      .destination;
    expect(shown.payoutsHeldUntil).toBe(destination.payoutsHeldUntil);

    const held = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(held.status).toBe(409);
    expect((await held.json()).error.code).toBe('payouts_held');

    harness.clock.offsetMs = 24 * HOUR + 60_000;
    const released = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(released.status).toBe(202);
    const { payouts } = await released.json();
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({
      currency: 'USD',
      destinationLabel: 'Wise a•••@example.com',
    });
    expect(
      (await (await call(seller, 'GET', '/api/payouts/destination')).json()).destination
        .payoutsHeldUntil,
    ).toBeNull();
  });

  it('a first destination with no money waiting is not held; a change is', async () => {
    const seller = newSeller();
    const first = await (
      await call(seller, 'PUT', '/api/payouts/destination', wise('48213377'))
    ).json();
    expect(first.destination.payoutsHeldUntil).toBeNull();
    const changed = await (
      await call(seller, 'PUT', '/api/payouts/destination', wise('11112222'))
    ).json();
    expect(Date.parse(changed.destination.payoutsHeldUntil) - Date.now()).toBeGreaterThan(
      23 * HOUR,
    );
  });
});

describe('DESTINATION_CHANGE_HOLD_HOURS=0', () => {
  it('turns the hold off, for a change too; the e-mail still goes', async () => {
    const unheld = await startHarness({ DESTINATION_CHANGE_HOLD_HOURS: '0' });
    try {
      const seller = newSeller();
      const put = async (accountId: string) =>
        fetchJson(`${unheld.url}/api/payouts/destination`, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${await unheld.token(seller)}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(wise(accountId)),
        });
      await put('48213377');
      const changed = await (await put('11112222')).json();
      expect(changed.destination.payoutsHeldUntil).toBeNull();
      await waitFor(async () =>
        (await mailTo(unheld.pool, seller.email)).some((mail) => mail.subject === CHANGED),
      );
    } finally {
      await unheld.close();
    }
  });
});
