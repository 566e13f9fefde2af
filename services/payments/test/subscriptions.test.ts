import { randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';
import { PLANS } from '@lockdrop/plans';
import { processedBy } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browser,
  ledgerOf,
  mailTo,
  startHarness,
  waitFor,
  type Harness,
  type TestUser,
} from './support.js';
import type { BillingInterval } from '@lockdrop/contracts';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test', CHECKOUT_EMAIL_LIMIT: '50' });
});
afterAll(() => harness?.close());

const DAY = 86_400_000;

const buyerOf = (email = `sub-${randomUUID()}@example.com`): TestUser => ({
  id: randomUUID(),
  email,
  emailVerified: true,
});

async function authed(user: TestUser) {
  const token = await harness.token(user);
  const client = browser(harness.url);
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => client.request(path, { headers }),
    post: (path: string, body: unknown = {}) => client.postJson(path, body, headers),
  };
}

/** The buyer subscribes through the sandbox page; returns the subscription row once it exists. */
async function subscribe(productId: string, buyer: TestUser) {
  const client = browser(harness.url);
  const started = await client.postJson('/api/checkout', {
    productId,
    buyerEmail: buyer.email,
  });
  expect(started.status).toBe(200);
  const { txRef, link } = await started.json();
  const page = await (await client.request(new URL(link).pathname)).text();
  expect(page).toMatch(/per (month|year)/);
  expect(page).toContain('Subscribe');
  await client.submitForm(`/sandbox/checkout/${txRef}/pay`);
  let subscriptionId = '';
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT s.id FROM subscriptions s JOIN checkouts c ON c.id = s.first_checkout_id WHERE c.tx_ref = $1`,
      [txRef],
    );
    subscriptionId = rows[0]?.id;
    return Boolean(subscriptionId);
  });
  return { subscriptionId, txRef };
}

const eventsOf = (type: string, subscriptionId: string) =>
  harness.published.filter(
    (event) => event.type === type && event.data.subscriptionId === subscriptionId,
  );

async function purchasesOf(subscriptionId: string) {
  const { rows } = await harness.pool.query<{
    id: string;
    renewal: boolean;
    amount_minor: number;
    fee_platform_minor: number;
  }>(
    'SELECT id, renewal, amount_minor, fee_platform_minor FROM purchases WHERE subscription_id = $1 ORDER BY paid_at',
    [subscriptionId],
  );
  return rows;
}

async function ledgerTotal() {
  const { rows } = await harness.pool.query<{ total: string; unbalanced: number }>(
    `SELECT coalesce(sum(amount_minor), 0)::text AS total,
            (SELECT count(*)::int FROM (SELECT journal_id FROM ledger_entries GROUP BY journal_id
               HAVING sum(amount_minor) <> 0) j) AS unbalanced
     FROM ledger_entries`,
  );
  return rows[0]!;
}

async function tick() {
  const before = harness.published.length;
  const due = createEvent(
    'subscriptions.due',
    { dueAt: new Date().toISOString() },
    { correlationId: randomUUID() },
  );
  await harness.publish(due);
  // The watermark: the clock's consumer has handled this tick, whose effects (rows and events
  // in the outbox) commit with it — also when it had nothing to do.
  await processedBy(harness.pool, 'payments.subscriptions-due', due.id);
  return before;
}

describe('subscriptions to a product (sandbox)', () => {
  it('subscribe, renew twice, cancel, keep access to the period end, then expire', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'monthly' },
      priceMinor: 200_000,
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    await waitFor(async () => eventsOf('subscription.started', subscriptionId).length === 1);
    const started = eventsOf('subscription.started', subscriptionId)[0]!.data;
    expect(started).toMatchObject({
      kind: 'product',
      productId: product.productId,
      sellerId: product.ownerId,
      interval: 'monthly',
      amountMinor: 200_000,
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    const paidEvent = () =>
      harness.published.find(
        (event) =>
          event.type === 'purchase.paid' &&
          event.data.subscription?.subscriptionId === subscriptionId,
      );
    await waitFor(async () => Boolean(paidEvent()));
    const paid = paidEvent();
    expect(paid?.data.subscription).toMatchObject({ status: 'active', revision: 1 });
    // Access lasts past the period's end by the renewal leeway (a day) while it is charged.
    const periodEnd = new Date(started.currentPeriodEnd).getTime();
    expect(new Date(started.accessUntil).getTime()).toBe(periodEnd + DAY);

    const client = await authed(buyer);
    for (let renewal = 1; renewal <= 2; renewal += 1) {
      const renewed = await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
      expect(renewed.status).toBe(200);
      await waitFor(
        async () => eventsOf('subscription.renewed', subscriptionId).length === renewal,
      );
    }
    // Each renewal's receipt carries the download (receipt) link.
    await waitFor(async () =>
      (await mailTo(harness.pool, buyer.email)).some((mail) => mail.subject.includes('renewed')),
    );
    const renewedMail = (await mailTo(harness.pool, buyer.email)).find((mail) =>
      mail.subject.includes('renewed'),
    )!;
    expect(renewedMail.subject).toBe(`[TEST] Your subscription to ${product.title} renewed`);
    expect(renewedMail.text_body).toMatch(/http:\/\/shop\.test\/receipt\/[A-Za-z0-9_-]{43}/);
    const charges = await purchasesOf(subscriptionId);
    expect(charges.map((charge) => charge.renewal)).toEqual([false, true, true]);
    // Each renewal is a sale with the same fee as the first (free plan: 5%).
    expect(charges.every((charge) => charge.fee_platform_minor === 10_000)).toBe(true);
    for (const charge of charges) {
      const lines = await ledgerOf(harness.pool, charge.id);
      expect(lines.reduce((sum, line) => sum + Number(line.amount_minor), 0)).toBe(0);
    }
    expect(await ledgerTotal()).toMatchObject({ total: '0', unbalanced: 0 });

    // The buyer's library lists the subscription once, with its next renewal.
    const listed = await (await client.get('/api/subscriptions')).json();
    expect(listed.subscriptions).toHaveLength(1);
    expect(listed.subscriptions[0]).toMatchObject({
      id: subscriptionId,
      status: 'active',
      cancelAtPeriodEnd: false,
      amountMinor: 200_000,
      testMode: true,
    });
    expect(listed.subscriptions[0].nextRenewalAt).not.toBeNull();
    const library = await (await client.get('/api/purchases')).json();
    expect(
      library.purchases.filter(
        (p: { subscriptionId: string }) => p.subscriptionId === subscriptionId,
      ),
    ).toHaveLength(1);

    // The seller sees one active subscriber and the monthly recurring revenue.
    const seller = await authed({ id: product.ownerId, email: 'seller@example.com' });
    const figures = await (await seller.get('/api/subscriptions/figures')).json();
    expect(figures.figures).toEqual([
      { currency: 'NGN', activeSubscribers: 1, monthlyRecurringMinor: 200_000 },
    ]);

    // Someone else cannot touch it.
    const stranger = await authed(buyerOf());
    expect((await stranger.post(`/api/subscriptions/${subscriptionId}/cancel`)).status).toBe(404);
    // Nor does the owner of a store the buyer's account is, acting for it after a transfer
    // (issue 28): the store's plan is theirs, the person's own subscriptions are not.
    const storeOwner = await authed({ ...buyer, actor: { id: randomUUID(), role: 'owner' } });
    expect((await storeOwner.post(`/api/subscriptions/${subscriptionId}/cancel`)).status).toBe(404);

    const cancelled = await client.post(`/api/subscriptions/${subscriptionId}/cancel`);
    expect(cancelled.status).toBe(200);
    const view = await cancelled.json();
    expect(view).toMatchObject({ cancelAtPeriodEnd: true, nextRenewalAt: null, status: 'active' });
    expect(view.accessUntil).toBe(view.currentPeriodEnd);
    const resumed = await client.post(`/api/subscriptions/${subscriptionId}/resume`);
    expect(await resumed.json()).toMatchObject({ cancelAtPeriodEnd: false });
    await client.post(`/api/subscriptions/${subscriptionId}/cancel`);
    await waitFor(async () => eventsOf('subscription.cancelled', subscriptionId).length === 2);
    expect(eventsOf('subscription.resumed', subscriptionId)).toHaveLength(1);
    expect((await (await seller.get('/api/subscriptions/figures')).json()).figures).toEqual([]);

    // Before the period ends the clock changes nothing; after it, the subscription expires
    // without another charge.
    await tick();
    expect(eventsOf('subscription.expired', subscriptionId)).toHaveLength(0);
    harness.clock.offsetMs = new Date(view.currentPeriodEnd).getTime() - Date.now() + 1_000;
    try {
      await tick();
      await waitFor(async () => eventsOf('subscription.expired', subscriptionId).length === 1);
    } finally {
      harness.clock.offsetMs = 0;
    }
    const expired = eventsOf('subscription.expired', subscriptionId)[0]!.data;
    expect(expired.status).toBe('expired');
    expect(new Date(expired.accessUntil).getTime()).toBeLessThanOrEqual(
      new Date(view.currentPeriodEnd).getTime() + 2_000,
    );
    expect(await purchasesOf(subscriptionId)).toHaveLength(3);
    expect((await client.post(`/api/subscriptions/${subscriptionId}/resume`)).status).toBe(409);
  });

  it('a declined renewal: past due with grace and an e-mail, paid again, then unpaid → expired', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'monthly' },
      priceMinor: 150_000,
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    const client = await authed(buyer);

    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/fail-next-renewal`);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    await waitFor(async () => eventsOf('subscription.past_due', subscriptionId).length === 1);
    const pastDue = eventsOf('subscription.past_due', subscriptionId)[0]!.data;
    const graceEnd = new Date(pastDue.accessUntil).getTime();
    expect(graceEnd - Date.now()).toBeGreaterThan(3 * DAY - 60_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(3 * DAY);
    await waitFor(async () =>
      (await mailTo(harness.pool, buyer.email)).some((mail) =>
        mail.subject.includes('could not renew'),
      ),
    );
    const mail = (await mailTo(harness.pool, buyer.email)).find((m) =>
      m.subject.includes('could not renew'),
    )!;
    expect(mail.text_body).toContain(`http://shop.test/purchases#subscription-${subscriptionId}`);
    expect(await purchasesOf(subscriptionId)).toHaveLength(1);

    // Pay now: a checkout for the unpaid period; paying it makes the subscription active again.
    const pay = await client.post(`/api/subscriptions/${subscriptionId}/pay`);
    expect(pay.status).toBe(200);
    const { txRef } = await pay.json();
    await browser(harness.url).submitForm(`/sandbox/checkout/${txRef}/pay`);
    await waitFor(async () => eventsOf('subscription.renewed', subscriptionId).length === 1);
    expect(eventsOf('subscription.renewed', subscriptionId)[0]!.data.status).toBe('active');
    expect((await client.post(`/api/subscriptions/${subscriptionId}/pay`)).status).toBe(409);

    // Declined again, and never paid: when the grace period is over, it ends.
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/fail-next-renewal`);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    await waitFor(async () => eventsOf('subscription.past_due', subscriptionId).length === 2);
    const second = eventsOf('subscription.past_due', subscriptionId)[1]!.data;
    harness.clock.offsetMs = new Date(second.accessUntil).getTime() - Date.now() + 1_000;
    try {
      await tick();
      await waitFor(async () => eventsOf('subscription.expired', subscriptionId).length === 1);
    } finally {
      harness.clock.offsetMs = 0;
    }
    expect(await purchasesOf(subscriptionId)).toHaveLength(2);
    expect(await ledgerTotal()).toMatchObject({ total: '0', unbalanced: 0 });
  });

  it("a Pro seller's declined-renewal e-mail carries their brand, not Lockdrop's header", async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'monthly' },
      priceMinor: 150_000,
    });
    const sellerId = product.ownerId;
    await harness.publish(
      createEvent(
        'plan.changed',
        { userId: sellerId, plan: 'pro', previousPlan: 'free' },
        { correlationId: randomUUID() },
      ),
    );
    await harness.publish(
      createEvent(
        'store.brand_updated',
        {
          sellerId,
          brand: {
            handle: 'dawn-recordings',
            name: 'Dawn Recordings',
            logoUrl: null,
            accentColour: '#0f766e',
          },
        },
        { correlationId: randomUUID() },
      ),
    );
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        `SELECT 1 FROM seller_brands b JOIN sellers s ON s.user_id = b.seller_id
          WHERE b.seller_id = $1 AND s.plan = 'pro'`,
        [sellerId],
      );
      return rows.length === 1;
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    const client = await authed(buyer);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/fail-next-renewal`);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    const mail = await waitFor(async () =>
      (await mailTo(harness.pool, buyer.email)).find((m) => m.subject.includes('could not renew')),
    );
    expect(mail.text_body).toContain('Dawn Recordings · Sold with Lockdrop');
    expect(mail.text_body).toContain('a subscription to Dawn Recordings');
    expect(mail.text_body).not.toContain('Lockdrop · Sell files behind a secure payment link');
  });

  it('refunding a charge ends the subscription, so older charges do not keep the file open', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'monthly' },
      priceMinor: 120_000,
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    const client = await authed(buyer);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    await waitFor(async () => eventsOf('subscription.renewed', subscriptionId).length === 1);
    const [, renewal] = await purchasesOf(subscriptionId);
    const seller = await authed({ id: product.ownerId, email: 'seller@example.com' });
    const refunded = await seller.post(`/api/purchases/${renewal!.id}/refund`);
    expect(refunded.status).toBe(200);
    await waitFor(async () => eventsOf('subscription.expired', subscriptionId).length === 1);
    expect(eventsOf('subscription.expired', subscriptionId)[0]!.data.status).toBe('expired');
    const listed = await (await client.get('/api/subscriptions')).json();
    expect(listed.subscriptions[0]).toMatchObject({ id: subscriptionId, status: 'expired' });
    expect(await ledgerTotal()).toMatchObject({ total: '0', unbalanced: 0 });
  });

  it('a deleted product is not renewed: its subscriptions end at the period end', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'monthly' },
      priceMinor: 110_000,
    });
    const { subscriptionId } = await subscribe(product.productId, buyerOf());
    await harness.publish(
      createEvent(
        'product.deleted',
        { productId: product.productId, ownerId: product.ownerId },
        { correlationId: randomUUID() },
      ),
    );
    await waitFor(async () => {
      const { rows } = await harness.pool.query('SELECT deleted FROM products WHERE id = $1', [
        product.productId,
      ]);
      return rows[0]?.deleted === true;
    });
    const { rows } = await harness.pool.query(
      'SELECT current_period_end FROM subscriptions WHERE id = $1',
      [subscriptionId],
    );
    harness.clock.offsetMs = rows[0].current_period_end.getTime() - Date.now() + 1_000;
    try {
      await tick();
      await waitFor(async () => eventsOf('subscription.expired', subscriptionId).length === 1);
    } finally {
      harness.clock.offsetMs = 0;
    }
    expect(await purchasesOf(subscriptionId)).toHaveLength(1);
  });

  it('duplicate and replayed renewal webhooks credit once', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'yearly' },
      priceMinor: 900_000,
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    const client = await authed(buyer);
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    await waitFor(async () => eventsOf('subscription.renewed', subscriptionId).length === 1);
    const { rows } = await harness.pool.query<{ payload: string }>(
      `SELECT e.payload::text AS payload FROM provider_events e JOIN checkouts c ON c.tx_ref = e.tx_ref
       WHERE c.subscription_id = $1`,
      [subscriptionId],
    );
    expect(rows).toHaveLength(1);
    // Replay the exact renewal notification three times at once (the sandbox signs with the
    // development secret), plus the clock asking again for the same period.
    const { webhookSignature } = await import('../src/providers/flutterwave-webhook.js');
    const raw = Buffer.from(rows[0]!.payload);
    const secret = 'lockdrop-sandbox-webhook-secret';
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${harness.url}/api/webhooks/sandbox`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'verif-hash': secret,
            'flutterwave-signature': webhookSignature(raw, secret),
          },
          body: raw,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await tick();
    expect(await purchasesOf(subscriptionId)).toHaveLength(2);
    expect(eventsOf('subscription.renewed', subscriptionId)).toHaveLength(1);
  });
});

describe("a seller's own plan", () => {
  async function payPlanCheckout(link: string) {
    const txRef = new URL(link).pathname.split('/').pop()!;
    await browser(harness.url).submitForm(`/sandbox/checkout/${txRef}/pay`);
    return txRef;
  }

  /** A new seller who bought `plan` through the sandbox; returns once plan.changed was emitted. */
  async function sellerOnPlan(plan: string, interval: BillingInterval) {
    const seller = {
      id: randomUUID(),
      email: `seller-${randomUUID()}@example.com`,
      emailVerified: true,
    };
    const client = await authed(seller);
    const { link } = await (
      await client.post('/api/billing/plan/change', { plan, interval })
    ).json();
    await payPlanCheckout(link);
    await waitFor(async () => planEvents(seller.id).length === 1);
    return { seller, client };
  }

  const planEvents = (userId: string) =>
    harness.published.filter(
      (event) => event.type === 'plan.changed' && event.data.userId === userId,
    );

  it('a plan paid in naira charges the naira price, and a change stays in naira', async () => {
    const seller = {
      id: randomUUID(),
      email: `seller-${randomUUID()}@example.com`,
      emailVerified: true,
    };
    const client = await authed(seller);
    const change = await client.post('/api/billing/plan/change', {
      plan: 'pro',
      interval: 'monthly',
      currency: 'NGN',
    });
    expect(change.status).toBe(200);
    const result = await change.json();
    expect(result).toMatchObject({ outcome: 'checkout', amountMinor: 30_000_00 });
    const txRef = new URL(result.link).pathname.split('/').pop()!;
    const { rows: opened } = await harness.pool.query(
      'SELECT amount_minor, currency, price_currency FROM checkouts WHERE tx_ref = $1',
      [txRef],
    );
    expect(opened).toEqual([{ amount_minor: 30_000_00, currency: 'NGN', price_currency: 'NGN' }]);
    await payPlanCheckout(result.link);
    await waitFor(async () => planEvents(seller.id).length === 1);
    expect((await (await client.get('/api/billing/plan')).json()).subscription).toMatchObject({
      plan: 'pro',
      amountMinor: 30_000_00,
      currency: 'NGN',
    });

    // Upgrading is priced in the subscription's naira; asking for dollars is refused.
    const dollars = await client.post('/api/billing/plan/change', {
      plan: 'business',
      interval: 'monthly',
      currency: 'USD',
    });
    expect(dollars.status).toBe(409);
    expect((await dollars.json()).error.code).toBe('plan_currency_fixed');
    const upgrade = await (
      await client.post('/api/billing/plan/change', { plan: 'business', interval: 'monthly' })
    ).json();
    expect(upgrade.outcome).toBe('checkout');
    // ₦75,000 less the unused part of the ₦30,000 month just paid.
    expect(upgrade.amountMinor).toBeGreaterThan(75_000_00 - 30_000_00 - 100);
    expect(upgrade.amountMinor).toBeLessThanOrEqual(75_000_00 - 29_000_00);
    const { rows: upgradeRows } = await harness.pool.query(
      'SELECT currency FROM checkouts WHERE tx_ref = $1',
      [new URL(upgrade.link).pathname.split('/').pop()],
    );
    expect(upgradeRows).toEqual([{ currency: 'NGN' }]);
  });

  it('upgrade to Pro: paid to the platform, plan.changed, and the next sale pays the Pro fee', async () => {
    const seller = {
      id: randomUUID(),
      email: `seller-${randomUUID()}@example.com`,
      emailVerified: true,
    };
    const client = await authed(seller);
    expect(await (await client.get('/api/billing/plan')).json()).toEqual({
      plan: 'free',
      subscription: null,
    });
    const change = await client.post('/api/billing/plan/change', {
      plan: 'pro',
      interval: 'monthly',
    });
    expect(change.status).toBe(200);
    const result = await change.json();
    const pro = PLANS.find((plan) => plan.id === 'pro')!;
    expect(result).toMatchObject({ outcome: 'checkout', amountMinor: pro.monthlyPriceMinor });
    const page = await (await browser(harness.url).request(new URL(result.link).pathname)).text();
    expect(page).toContain('Lockdrop Pro');
    const txRef = await payPlanCheckout(result.link);

    await waitFor(async () => planEvents(seller.id).length === 1);
    expect(planEvents(seller.id)[0]!.data).toEqual({
      userId: seller.id,
      plan: 'pro',
      previousPlan: 'free',
    });
    const billing = await (await client.get('/api/billing/plan')).json();
    expect(billing).toMatchObject({
      plan: 'pro',
      subscription: {
        plan: 'pro',
        interval: 'monthly',
        status: 'active',
        amountMinor: 1999,
        currency: 'USD',
      },
    });

    // The platform earned it; no seller account moved.
    const { rows: lines } = await harness.pool.query(
      `SELECT l.kind, l.account, l.seller_id, l.amount_minor FROM ledger_entries l
       JOIN subscription_charges c ON c.id = l.charge_id WHERE c.tx_ref = $1 ORDER BY l.id`,
      [txRef],
    );
    expect(lines.map((line) => line.account)).toEqual([
      'buyer_payments',
      'plan_revenue',
      'processor_fees',
    ]);
    expect(lines.every((line) => line.seller_id === null && line.kind === 'plan_payment')).toBe(
      true,
    );
    expect(lines.reduce((sum, line) => sum + Number(line.amount_minor), 0)).toBe(0);

    // The next sale of this seller is charged the Pro fee (2.5%), not the free plan's 5%.
    const product = await harness.publishProduct({ ownerId: seller.id, priceMinor: 100_000 });
    const buyerClient = browser(harness.url);
    const { txRef: saleRef } = await (
      await buyerClient.postJson('/api/checkout', {
        productId: product.productId,
        buyerEmail: `b-${randomUUID()}@example.com`,
      })
    ).json();
    await buyerClient.submitForm(`/sandbox/checkout/${saleRef}/pay`);
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        'SELECT fee_platform_minor FROM purchases WHERE tx_ref = $1',
        [saleRef],
      );
      return rows[0]?.fee_platform_minor === 2_500;
    });

    // Upgrading again is charged now, less the unused part of the month.
    const upgrade = await (
      await client.post('/api/billing/plan/change', { plan: 'business', interval: 'monthly' })
    ).json();
    expect(upgrade.outcome).toBe('checkout');
    expect(upgrade.amountMinor).toBeLessThan(4999);
    expect(upgrade.amountMinor).toBeGreaterThanOrEqual(4999 - 1999);
    await payPlanCheckout(upgrade.link);
    await waitFor(async () => planEvents(seller.id).length === 2);
    expect(planEvents(seller.id)[1]!.data).toMatchObject({ plan: 'business', previousPlan: 'pro' });

    // A downgrade waits for the period's end, then renews at the lower plan's price.
    const downgrade = await (
      await client.post('/api/billing/plan/change', { plan: 'starter', interval: 'monthly' })
    ).json();
    expect(downgrade.outcome).toBe('scheduled');
    const scheduled = await (await client.get('/api/billing/plan')).json();
    expect(scheduled).toMatchObject({ plan: 'business', subscription: { pendingPlan: 'starter' } });
    const subscriptionId = scheduled.subscription.id;
    await client.post(`/api/subscriptions/${subscriptionId}/sandbox/renew-now`);
    await waitFor(async () => planEvents(seller.id).length === 3);
    expect(planEvents(seller.id)[2]!.data).toMatchObject({
      plan: 'starter',
      previousPlan: 'business',
    });
    expect(await (await client.get('/api/billing/plan')).json()).toMatchObject({
      plan: 'starter',
      subscription: { amountMinor: 999, pendingPlan: null },
    });
    expect(await ledgerTotal()).toMatchObject({ total: '0', unbalanced: 0 });
  });

  it('an annual plan cancelled within 30 days is refunded pro rata and the seller is back on Free', async () => {
    const { seller, client } = await sellerOnPlan('starter', 'yearly');

    harness.clock.offsetMs = 10 * DAY;
    try {
      const cancelled = await client.post('/api/billing/plan/cancel', { refund: true });
      expect(cancelled.status).toBe(200);
      const body = await cancelled.json();
      // 355 of 365 days unused.
      expect(body.refundedMinor).toBeGreaterThan(Math.floor((9999 * 354) / 365));
      expect(body.refundedMinor).toBeLessThanOrEqual(Math.ceil((9999 * 355) / 365));
      expect(body.currency).toBe('USD');
      // The sandbox answers at once: the refund is done, not pending.
      expect(body.refundStatus).toBe('succeeded');
    } finally {
      harness.clock.offsetMs = 0;
    }
    await waitFor(async () => planEvents(seller.id).length === 2);
    expect(planEvents(seller.id)[1]!.data).toMatchObject({ plan: 'free', previousPlan: 'starter' });
    expect(await (await client.get('/api/billing/plan')).json()).toEqual({
      plan: 'free',
      subscription: null,
    });
    const { rows } = await harness.pool.query(
      `SELECT refunded_minor FROM sandbox_payments WHERE buyer_email = $1 AND status = 'successful'`,
      [seller.email],
    );
    expect(Number(rows[0].refunded_minor)).toBeGreaterThan(0);
    expect(await ledgerTotal()).toMatchObject({ total: '0', unbalanced: 0 });
    // A second refund is refused: nothing is left to cancel.
    expect((await client.post('/api/billing/plan/cancel', { refund: true })).status).toBe(409);
  });

  it('a declined plan renewal: past due, then back to Free when the grace period is over', async () => {
    const { seller, client } = await sellerOnPlan('business', 'monthly');
    const { subscription } = await (await client.get('/api/billing/plan')).json();
    await client.post(`/api/subscriptions/${subscription.id}/sandbox/fail-next-renewal`);
    await client.post(`/api/subscriptions/${subscription.id}/sandbox/renew-now`);
    await waitFor(async () => eventsOf('subscription.past_due', subscription.id).length === 1);
    // Still Business through the grace period; the e-mail points to the plan settings.
    expect(await (await client.get('/api/billing/plan')).json()).toMatchObject({
      plan: 'business',
      subscription: { status: 'past_due' },
    });
    await waitFor(async () =>
      (await mailTo(harness.pool, seller.email)).some((mail) =>
        mail.text_body.includes('http://shop.test/settings#plan'),
      ),
    );
    const graceEnd = eventsOf('subscription.past_due', subscription.id)[0]!.data.accessUntil;
    harness.clock.offsetMs = new Date(graceEnd).getTime() - Date.now() + 1_000;
    try {
      await tick();
      await waitFor(async () => planEvents(seller.id).length === 2);
    } finally {
      harness.clock.offsetMs = 0;
    }
    expect(planEvents(seller.id)[1]!.data).toMatchObject({
      plan: 'free',
      previousPlan: 'business',
    });
    expect(await (await client.get('/api/billing/plan')).json()).toEqual({
      plan: 'free',
      subscription: null,
    });
  });

  it('reminds a yearly subscriber 7 days before the renewal, once', async () => {
    const product = await harness.publishProduct({
      pricing: { type: 'recurring', interval: 'yearly' },
      priceMinor: 1_200_000,
    });
    const buyer = buyerOf();
    const { subscriptionId } = await subscribe(product.productId, buyer);
    const { rows } = await harness.pool.query(
      'SELECT current_period_end FROM subscriptions WHERE id = $1',
      [subscriptionId],
    );
    const reminders = async () =>
      (await mailTo(harness.pool, buyer.email)).filter((mail) =>
        mail.subject.includes('renews on'),
      );
    harness.clock.offsetMs = rows[0].current_period_end.getTime() - Date.now() - 8 * DAY;
    try {
      await tick();
      expect(await reminders()).toHaveLength(0);
      harness.clock.offsetMs += 2 * DAY;
      await tick();
      await waitFor(async () => (await reminders()).length === 1);
      await tick();
    } finally {
      harness.clock.offsetMs = 0;
    }
    const [reminder] = await reminders();
    expect(reminder!.text_body).toContain(formatMoney(1_200_000, 'NGN'));
    expect(reminder!.text_body).toContain(
      `http://shop.test/purchases#subscription-${subscriptionId}`,
    );
    expect(await reminders()).toHaveLength(1);
  });

  it('two plan checkouts paid while on Free: the newest plan wins and one plan stays live', async () => {
    const seller = {
      id: randomUUID(),
      email: `seller-${randomUUID()}@example.com`,
      emailVerified: true,
    };
    const client = await authed(seller);
    const first = await (
      await client.post('/api/billing/plan/change', { plan: 'starter', interval: 'monthly' })
    ).json();
    const second = await (
      await client.post('/api/billing/plan/change', { plan: 'pro', interval: 'monthly' })
    ).json();
    await payPlanCheckout(first.link);
    await waitFor(async () => planEvents(seller.id).length === 1);
    await payPlanCheckout(second.link);
    await waitFor(async () => planEvents(seller.id).length === 2);
    expect(planEvents(seller.id)[1]!.data).toMatchObject({ plan: 'pro', previousPlan: 'starter' });
    const { rows } = await harness.pool.query(
      `SELECT plan, status FROM subscriptions WHERE user_id = $1 ORDER BY created_at`,
      [seller.id],
    );
    expect(rows).toEqual([
      { plan: 'starter', status: 'expired' },
      { plan: 'pro', status: 'active' },
    ]);
  });

  it('a monthly plan is not refunded; cancelling keeps it to the period end', async () => {
    const { client, seller } = await sellerOnPlan('pro', 'monthly');
    const refused = await client.post('/api/billing/plan/cancel', { refund: true });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('refund_window_closed');
    const cancelled = await (await client.post('/api/billing/plan/cancel', {})).json();
    expect(cancelled.refundedMinor).toBe(0);
    expect(await (await client.get('/api/billing/plan')).json()).toMatchObject({
      plan: 'pro',
      subscription: { cancelAtPeriodEnd: true, nextRenewalAt: null },
    });
    // The plan card's Resume and Cancel act on the plan's subscription: an owner who received
    // the store by a transfer (acting for it) may; the former owner, now its admin, may not.
    const planId = (await (await client.get('/api/billing/plan')).json()).subscription.id;
    const actingAs = (role: 'owner' | 'admin') =>
      authed({ ...seller, actor: { id: randomUUID(), role } });
    const byAdmin = await (await actingAs('admin')).post(`/api/subscriptions/${planId}/resume`);
    expect(byAdmin.status).toBe(403);
    const byOwner = await (await actingAs('owner')).post(`/api/subscriptions/${planId}/resume`);
    expect(byOwner.status).toBe(200);
    expect(await byOwner.json()).toMatchObject({ cancelAtPeriodEnd: false });
  });
});
