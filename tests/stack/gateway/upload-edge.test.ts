import { request as httpRequest } from 'node:http';
import { freePort, startNginxEdge, type NginxEdge } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from './people.js';
import { startTeamStack } from './team-stack.js';

// Upload bodies through the delivery edge (issue 31): nginx (deploy/base/nginx/delivery-edge.conf,
// the deployed file) asks the real gateway to admit each upload, then streams the body to the
// real delivery itself. Whatever the gateway refuses on its own path is refused here too, in the
// shared error shape, before a byte reaches delivery.
let stack: Awaited<ReturnType<typeof startTeamStack>>;
const edges: NginxEdge[] = [];
let edge: string;
/** In front of a gateway with a budget of 3 requests a minute and a 4 KiB upload limit. */
let tightEdge: string;
/** In front of delivery, with no gateway to admit anything. */
let gatewaylessEdge: string;
/** With a gateway, in front of a delivery that is not there. */
let deliverylessEdge: string;
const people = () => stack.people;

async function edgeTo(deliveryUrl: string, gatewayUrl?: string) {
  const started = await startNginxEdge({
    port: await freePort(),
    deliveryUrl,
    ...(gatewayUrl ? { gatewayUrl } : {}),
    dataDir: stack.dataDir,
  });
  edges.push(started);
  return started.url;
}

beforeAll(async () => {
  stack = await startTeamStack({ label: 'upload-edge', payments: false });
  const gatewayUrl = await stack.startGateway('a', { TEAM_MEMBERSHIP_CACHE_SECONDS: '60' });
  // Behind one proxy, as deployed (the ingress): each request below names its client the way
  // the ingress would.
  const tightGatewayUrl = await stack.startGateway('b', {
    RATE_LIMIT_PER_MINUTE: '3',
    UPLOAD_BODY_LIMIT_BYTES: '4096',
    TRUST_PROXY: '1',
  });
  edge = await edgeTo(stack.deliveryUrl, gatewayUrl);
  tightEdge = await edgeTo(stack.deliveryUrl, tightGatewayUrl);
  gatewaylessEdge = await edgeTo(stack.deliveryUrl);
  deliverylessEdge = await edgeTo(`http://127.0.0.1:${await freePort()}`, gatewayUrl);
}, 120_000);

afterAll(async () => {
  for (const started of edges) await started.stop();
  await stack?.close();
});

/** Uploads this month by `person`'s store, as delivery counts them. */
async function uploadsCounted(person: Person): Promise<number> {
  const usage = await person.call('/api/uploads/usage');
  expect(usage.status).toBe(200);
  return usage.body.used;
}

function fileForm(bytes: Uint8Array, name = 'notes.txt') {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return form;
}

describe('uploads through the delivery edge', () => {
  it("stores an owner's file whole, answered with the gateway's API headers", async () => {
    const owner = await people().signUp('pro');
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, index) => index % 251);
    const response = await fetch(`${edge}/api/uploads`, {
      method: 'POST',
      headers: { cookie: `ld_access=${owner.accessToken}` },
      body: fileForm(bytes, 'pattern.bin'),
    });
    const text = await response.text();
    expect({ status: response.status, text }).toEqual({ status: 201, text: expect.any(String) });
    const stored = JSON.parse(text) as { id: string; sizeBytes: number };
    expect(stored.sizeBytes).toBe(bytes.length);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // The same file, seen from the gateway's own path.
    const described = await owner.call(`/api/uploads/${stored.id}`);
    expect(described.body).toMatchObject({ id: stored.id, sizeBytes: bytes.length });
  });

  it("refuses a removed member's still-valid token before a byte reaches delivery", async () => {
    const owner = await people().signUp('pro');
    const editor = await people().member(owner, 'editor');
    await people().upload(editor, edge);
    const before = await uploadsCounted(owner);

    const removed = await owner.call(`/api/auth/stores/${owner.userId}/members/${editor.userId}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    const refused = await editor.call('/api/uploads', {
      form: fileForm(new TextEncoder().encode('after removal')),
      origin: edge,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: {
        code: 'store_membership_ended',
        message: expect.stringContaining('no longer a member'),
      },
    });
    expect(await uploadsCounted(owner)).toBe(before);
  });

  it("holds each address's budget and the declared size limit, each in its own words", async () => {
    const owner = await people().signUp('pro');
    const answers: Array<{ status: number; code?: string; retryAfter: string | null }> = [];
    for (const [size, client] of [
      [5000, '203.0.113.7'],
      [100, '203.0.113.7'],
      [100, '203.0.113.7'],
      [100, '203.0.113.7'],
      // Another address has its own budget.
      [100, '198.51.100.20'],
    ] as const) {
      const response = await fetch(`${tightEdge}/api/uploads`, {
        method: 'POST',
        headers: { cookie: `ld_access=${owner.accessToken}`, 'x-forwarded-for': client },
        body: fileForm(new Uint8Array(size)),
      });
      const body = (await response.json()) as { error?: { code: string } };
      answers.push({
        status: response.status,
        ...(body.error ? { code: body.error.code } : {}),
        retryAfter: response.headers.get('retry-after'),
      });
    }
    expect(answers).toEqual([
      { status: 413, code: 'payload_too_large', retryAfter: null },
      { status: 201, retryAfter: null },
      { status: 201, retryAfter: null },
      { status: 429, code: 'rate_limited', retryAfter: expect.stringMatching(/^\d+$/) },
      { status: 201, retryAfter: null },
    ]);
  });

  it('answers in the error shape when the gateway or delivery cannot be reached', async () => {
    const owner = await people().signUp('pro');
    const before = await uploadsCounted(owner);
    const results = [];
    for (const origin of [gatewaylessEdge, deliverylessEdge]) {
      const answer = await owner.call('/api/uploads', {
        form: fileForm(new TextEncoder().encode('nowhere to go')),
        origin,
      });
      results.push({ status: answer.status, code: answer.body.error?.code });
    }
    expect(results).toEqual([
      { status: 503, code: 'service_unavailable' },
      { status: 502, code: 'service_unavailable' },
    ]);
    expect(await uploadsCounted(owner)).toBe(before);
  });

  it('never lets a client speak for the gateway past the edge', async () => {
    const owner = await people().signUp('pro');
    const bytes = new TextEncoder().encode('claims stripped');
    const form = fileForm(bytes);
    // A client claiming the admission itself only gets the gateway's admission answer: nothing stored.
    const direct = await fetch(`${owner.origin}/api/uploads`, {
      method: 'POST',
      headers: { cookie: `ld_access=${owner.accessToken}`, 'x-lockdrop-edge-admission': '1' },
      body: form,
    });
    expect(direct.status).toBe(204);
    expect(await uploadsCounted(owner)).toBe(0);
    // Through the edge the same claim changes nothing: the file is stored once.
    const viaEdge = await new Promise<number>((resolve, reject) => {
      const boundary = 'lockdrop-edge-test';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\n`,
        ),
        Buffer.from(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const sent = httpRequest(
        `${edge}/api/uploads`,
        {
          method: 'POST',
          headers: {
            cookie: `ld_access=${owner.accessToken}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': body.length,
            'x-lockdrop-edge-admission': '1',
            'x-lockdrop-store-seller': owner.userId,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
    expect(viaEdge).toBe(201);
    expect(await uploadsCounted(owner)).toBe(1);
  });
});
