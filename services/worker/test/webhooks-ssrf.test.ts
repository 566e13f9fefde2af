import {
  purchasePaidData,
  startTestIssuer,
  startWebhookReceiver,
  testEvent,
  type TestIssuer,
  type WebhookReceiver,
} from '@lockdrop/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isRefusedAddress, resolvePublicAddress } from '../src/webhooks/address-guard.js';
import { startWorkerHarness, waitFor, type WorkerHarness } from './support.js';

// The production setting: WEBHOOK_ALLOW_LOOPBACK unset.
let issuer: TestIssuer;
let harness: WorkerHarness;
let hooks: WebhookReceiver;
beforeAll(async () => {
  issuer = await startTestIssuer();
  harness = await startWorkerHarness({
    JWKS_URL: issuer.jwksUrl,
    WEBHOOK_ATTEMPTS: '2',
    WEBHOOK_BACKOFF_MS: '50',
  });
  hooks = await startWebhookReceiver();
}, 60_000);
afterAll(async () => {
  await hooks?.close();
  await harness?.close();
  await issuer?.close();
});

it('refuses a receiver on loopback, by address or by name, unless the loopback setting is on', async () => {
  const worker = await harness.startWorker();
  const seller = await issuer.account();
  const port = new URL(hooks.url).port;
  for (const url of [hooks.url, `http://localhost:${port}/hooks`]) {
    const created = await worker.inject({
      method: 'POST',
      url: '/api/webhook-endpoints',
      headers: { authorization: seller.authorization },
      payload: { url, events: ['sale.created'] },
    });
    expect(created.statusCode).toBe(201);
  }
  await harness.bus.publish(testEvent('purchase.paid', purchasePaidData({ sellerId: seller.id })));
  const { rows } = await waitFor(async () => {
    const result = await harness.pool.query(
      `SELECT status, error, response_status FROM webhook_deliveries WHERE seller_id = $1 AND status = 'failed'`,
      [seller.id],
    );
    return result.rows.length === 2 && result;
  });
  for (const row of rows) {
    expect(row.error).toMatch(/resolves to (127\.0\.0\.1|::1), a private or reserved address/);
    expect(row.response_status).toBeNull();
  }
  expect(hooks.requests).toHaveLength(0);
});

it('refuses private, link-local, CGNAT, multicast and their IPv6 forms; lets public addresses through', async () => {
  const strict = { allowLoopback: false };
  for (const [address, family] of [
    ['10.1.2.3', 4],
    ['172.20.0.1', 4],
    ['192.168.1.1', 4],
    ['169.254.169.254', 4],
    ['100.64.0.1', 4],
    ['127.0.0.1', 4],
    ['0.0.0.0', 4],
    ['224.0.0.1', 4],
    ['::1', 6],
    ['::', 6],
    ['fd00::1', 6],
    ['fe80::1', 6],
    ['ff02::1', 6],
    ['::ffff:10.0.0.1', 6],
    ['::ffff:127.0.0.1', 6],
    ['64:ff9b::a00:1', 6],
  ] as const)
    expect(isRefusedAddress(address, family, strict), address).toBe(true);
  for (const [address, family] of [
    ['93.184.216.34', 4],
    ['8.8.8.8', 4],
    ['2606:4700:4700::1111', 6],
  ] as const)
    expect(isRefusedAddress(address, family, strict), address).toBe(false);
  // The setting opens loopback only, never the private networks beside it.
  expect(isRefusedAddress('127.0.0.1', 4, { allowLoopback: true })).toBe(false);
  expect(isRefusedAddress('::1', 6, { allowLoopback: true })).toBe(false);
  expect(isRefusedAddress('10.0.0.1', 4, { allowLoopback: true })).toBe(true);
  await expect(resolvePublicAddress('[::1]', strict)).rejects.toThrow(/private or reserved/);
  await expect(resolvePublicAddress('169.254.169.254', { allowLoopback: true })).rejects.toThrow(
    /private or reserved/,
  );
});
