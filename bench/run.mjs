// `npm run bench`: starts its own production-mode stack (own ports, database, bus namespace,
// Redis prefix and data directory), seeds a seller, a product and a paid purchase, then runs
// every scenario against its baseline in the same run, interleaved A/B, prints a table and
// writes BENCHMARKS.md. It prints figures and never fails on a timing.
//
//   npm run bench                      all scenarios, 3 rounds of 10 s each side
//   npm run bench -- --smoke           1 round of 2 s (checks that the harness works)
//   npm run bench -- --only product,share --rounds 5 --seconds 15
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { dropDatabase, withDatabaseName } from '@lockdrop/db';
import {
  chargeInSandbox,
  deleteStreams,
  sandboxWebhookHeaders,
  startNginxEdge,
} from '@lockdrop/testing';
import {
  prepareStack,
  productionSecrets,
  root,
  SERVICE_NODE_ARGS,
  stackLayout,
  startStack,
} from '../tools/stack.mjs';

const { values: options } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '100' },
    'file-mib': { type: 'string' },
    /** The steady webhook scenario's offered payments per second and duration. */
    'steady-rate': { type: 'string' },
    'steady-seconds': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of every process into this directory (for "what limits it"). */
    profile: { type: 'string' },
  },
});
const rounds = Number(options.rounds ?? (options.smoke ? 1 : 3));
const seconds = Number(options.seconds ?? (options.smoke ? 2 : 10));
const connections = Number(options.connections);
const fileMiB = Number(options['file-mib'] ?? (options.smoke ? 8 : 45));
const only = new Set(
  (
    options.only ??
    'product,product-direct,product-spread,share,download,upload,webhooks,webhooks-steady,pages'
  ).split(','),
);

await prepareStack();

const runId = randomBytes(4).toString('hex');
const gatewayPort = 19_080;
const layout = stackLayout({ gatewayPort, servicePortBase: gatewayPort - 80 });
// `npm start`'s default, beside the edge: a second delivery replica that streams the bytes itself.
const streamingDeliveryPort = gatewayPort + 105;
if (only.has('download')) {
  const delivery = layout.find((entry) => entry.name === 'delivery');
  layout.push({
    name: 'delivery-streams',
    service: 'delivery',
    port: streamingDeliveryPort,
    env: { ...delivery.env, PORT: String(streamingDeliveryPort), DOWNLOAD_OFFLOAD: 'none' },
  });
}
const portOf = (name) => layout.find((entry) => entry.name === name).port;
const baseUrl = `http://127.0.0.1:${gatewayPort}`;
const scratch = await mkdtemp(path.join(os.tmpdir(), 'lockdrop-bench-'));
const dataDir = path.join(scratch, 'delivery');
const databaseUrl = withDatabaseName(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
  `lockdrop_bench_${runId}`,
);

const sandboxWebhookSecret = randomBytes(24).toString('base64url');

/** Production mode as a deployment runs it: real secrets (made up here), the sandbox as a demo. */
function productionEnv() {
  return {
    ...productionSecrets(),
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    BUS_NAMESPACE: `bench${runId}`,
    REDIS_KEY_PREFIX: `lockdrop-bench-${runId}:`,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Downloads as deployed: the nginx edge (deploy/base/nginx/delivery-edge.conf) sends the bytes.
    DOWNLOAD_OFFLOAD: 'x-accel',
    ALLOW_TEST_PAYMENTS: 'true',
    SANDBOX_WEBHOOK_SECRET: sandboxWebhookSecret,
    // Unconfirmed checkouts are left to the webhooks the benchmark sends.
    RECONCILE_INTERVAL_MS: '3600000',
    // The load comes from one address; per-IP budgets meant for attackers would throttle it.
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000000',
    SENSITIVE_RATE_LIMIT_PER_MINUTE: '100000',
    SIGN_IN_PER_IP_LIMIT: '100000',
  };
}

// ─── seeding ──────────────────────────────────────────────────────────────────────────────

/** A cookie-keeping client of the gateway, as a browser would be. */
function client() {
  const cookies = new Map();
  const request = async (pathname, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('origin', `http://localhost:${gatewayPort}`);
    if (cookies.size)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(pathname, baseUrl), {
      ...init,
      headers,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
    return response;
  };
  const json = async (pathname, body, method = 'POST') => {
    const response = await request(pathname, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  return { request, json, cookies };
}

function multipart(fileName, bytes) {
  const boundary = `----lockdrop-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function seed() {
  const seller = client();
  const email = `bench-${runId}@example.com`;
  await seller.json('/api/auth/sign-up', {
    email,
    password: `Bench-${randomBytes(8).toString('hex')}`,
    fullName: 'Bench Seller',
    acceptTerms: true,
  });
  // Business: unlimited uploads and 1 GB files, bought like any seller buys a plan.
  const change = await seller.json('/api/billing/plan/change', {
    plan: 'business',
    interval: 'monthly',
  });
  const planRef = new URL(change.link).pathname.split('/').pop();
  await seller.request(`/sandbox/checkout/${planRef}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  // Plans reach delivery in the access token: renew it until identity has applied plan.changed.
  await waitFor(async () => {
    const response = await seller.request('/api/auth/refresh', { method: 'POST' });
    return response.ok && (await response.json()).user?.plan === 'business';
  }, 'the Business plan in the session');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const bytes = randomBytes(fileMiB * 1024 * 1024);
    const upload = multipart('bench.zip', bytes);
    const uploaded = await seller.request('/api/uploads', {
      method: 'POST',
      headers: { 'content-type': upload.contentType },
      body: upload.body,
    });
    if (uploaded.status !== 201)
      throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const { id: fileId } = await uploaded.json();
    const product = await seller.json('/api/products', {
      title: 'Lagos street photography pack',
      description: 'Forty photographs of Lagos at dawn, full resolution.',
      price: '12.50',
      currency: 'USD',
      fileId,
      previewEnabled: false,
    });
    await seller.json(`/api/products/${product.id}/status`, { status: 'published' });

    const buyer = client();
    // Payments learns of the publication from product.published, a moment after the commit.
    let checkout = null;
    await waitFor(async () => {
      const response = await buyer.request('/api/checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ productId: product.id, buyerEmail: `buyer-${runId}@example.com` }),
      });
      if (response.ok) checkout = await response.json();
      return response.ok;
    }, 'payments to see the product published');
    await buyer.request(`/sandbox/checkout/${checkout.txRef}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    let purchaseId = null;
    await waitFor(async () => {
      const response = await buyer.request(`/api/purchases/by-reference?tx_ref=${checkout.txRef}`);
      const body = await response.json();
      purchaseId = body.purchase?.id ?? null;
      return body.status === 'paid';
    }, 'the purchase to be paid');
    await waitFor(
      async () =>
        (
          await buyer.request('/api/downloads', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ purchaseId }),
          })
        ).ok,
      'the entitlement to reach delivery',
    );
    const link = await buyer.json('/api/downloads', { purchaseId });
    const { rows } = await db.query('SELECT storage_key FROM delivery.files WHERE id = $1', [
      fileId,
    ]);
    return {
      productId: product.id,
      downloadUrl: link.downloadUrl,
      storageKey: rows[0].storage_key,
      fileBytes: bytes.length,
      seller,
      sellerCookie: [...seller.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
  } finally {
    await db.end();
  }
}

async function waitFor(check, what, timeoutMs = 30_000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

// ─── pages (Lighthouse) ─────────────────────────────────────────────────────────────────

const LIGHTHOUSE = 'lighthouse@12.8.2';
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

/**
 * Lighthouse's mobile performance audit (simulated slow 4G and a 4× slower CPU) of the landing,
 * pricing and product pages, each run `rounds` times; the median score counts. Lighthouse comes
 * from the npm registry through npx when the bench runs (it is not a project dependency).
 */
async function pagesScenario({ productId }) {
  if (spawnSync('sh', ['-c', `command -v ${CHROMIUM}`]).status !== 0) {
    console.log(`  ${CHROMIUM} is missing: Lighthouse skipped`);
    return [];
  }
  const pages = [
    ['landing page', '/'],
    ['pricing page', '/pricing'],
    ['product page', `/product/${productId}`],
  ];
  const results = [];
  for (const [label, pagePath] of pages) {
    const runs = [];
    for (let round = 0; round < rounds; round += 1) {
      const output = path.join(scratch, 'lighthouse.json');
      const run = spawnSync(
        'npx',
        [
          '--yes',
          LIGHTHOUSE,
          `${baseUrl}${pagePath}`,
          '--only-categories=performance',
          `--chrome-flags=${CHROMIUM_FLAGS}`,
          '--output=json',
          `--output-path=${output}`,
          '--quiet',
        ],
        { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: 'inherit', timeout: 180_000 },
      );
      if (run.status !== 0) {
        console.log(`  lighthouse failed on ${pagePath} (exit ${run.status})`);
        continue;
      }
      const { categories, audits } = JSON.parse(await readFile(output, 'utf8'));
      const figures = {
        score: Math.round(categories.performance.score * 100),
        fcp: audits['first-contentful-paint'].numericValue,
        lcp: audits['largest-contentful-paint'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
        cls: audits['cumulative-layout-shift'].numericValue,
        kib: audits['total-byte-weight'].numericValue / 1024,
      };
      console.log(`  ${label} round ${round + 1}: ${figures.score}`);
      if (figures.cls > 0) console.log(`    layout shifts: ${layoutShiftCulprits(audits)}`);
      runs.push(figures);
    }
    if (runs.length) results.push({ label, runs });
  }
  return results;
}

/** What moved, from Lighthouse's own layout-shift audit: the CLS figure alone does not say. */
function layoutShiftCulprits(audits) {
  const items = audits['layout-shifts']?.details?.items ?? [];
  return (
    items
      .map(({ node, score }) => `${node?.selector ?? node?.snippet ?? '?'} ${score.toFixed(3)}`)
      .join('; ') || 'none named'
  );
}

function pagesTable(results) {
  if (!results.length) return '';
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  return [
    '| page (Lighthouse 12, mobile) | performance | FCP | LCP | TBT | CLS | transferred |',
    '|---|---|---|---|---|---|---|',
    ...results.map(({ label, runs }) => {
      const of = (key) => median(runs.map((run) => run[key]));
      return `| ${label} | **${of('score')}** (${range(runs.map((run) => run.score))}) | ${seconds(of('fcp'))} | ${seconds(of('lcp'))} | ${Math.round(of('tbt'))} ms | ${of('cls').toFixed(3)} | ${Math.round(of('kib'))} KiB |`;
    }),
  ].join('\n');
}

// ─── measuring ────────────────────────────────────────────────────────────────────────────

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim() || 100);

async function cpuAndRss(pid) {
  try {
    const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return {
      cpuMs: ((Number(stat[11]) + Number(stat[12])) * 1000) / CLOCK_TICKS,
      rssMiB: rssKiB / 1024,
    };
  } catch {
    return { cpuMs: 0, rssMiB: 0 };
  }
}

/**
 * CPU milliseconds every process on the machine but the load generator spends from now until
 * `stop()`, by who spent it: the stack's services by name, the rest by program (postgres,
 * nats-server, redis-server), for "what does one payment cost in all, and where". The load
 * generator is this process, `benchBackends` (the Postgres backends serving its own polls) and
 * any process running one of `loadPrograms` (the curl clients of the download scenario).
 * Counted per process and sampled every 250 ms: a process that ends in between (a Postgres
 * backend its pool closed) keeps what it spent until its last sample. Totals of two snapshots
 * took such a backend's whole life out of the sum, and a burst once showed no Postgres at all.
 */
async function watchMachineCpu(servicePids, benchBackends = [], loadPrograms = []) {
  const serviceOf = new Map(Object.entries(servicePids).map(([name, pid]) => [String(pid), name]));
  const ours = new Set([process.pid, ...benchBackends].map(String));
  /** pid → { who, atStart, latest }; a process started meanwhile starts at 0. */
  const seen = new Map();
  const ended = {};
  const sample = async (initial) => {
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry) || ours.has(entry)) continue;
      const program = (await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => null))?.trim();
      if (!program || loadPrograms.includes(program)) continue;
      const { cpuMs } = await cpuAndRss(entry);
      // The kernel's workers (disk writeback for the WAL, mostly) under one name, not one per thread.
      const who =
        serviceOf.get(entry) ?? (program.startsWith('kworker') ? 'kernel workers' : program);
      const known = seen.get(entry);
      if (known && (known.who !== who || cpuMs < known.latest)) {
        // The pid was reused: bank what the process before spent.
        ended[known.who] = (ended[known.who] ?? 0) + known.latest - known.atStart;
        seen.delete(entry);
      }
      const entryNow = seen.get(entry) ?? { who, atStart: initial ? cpuMs : 0, latest: cpuMs };
      entryNow.latest = cpuMs;
      seen.set(entry, entryNow);
    }
  };
  await sample(true);
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(() => sample(false));
  }, 250);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      await sample(false);
      const spent = { ...ended };
      for (const { who, atStart, latest } of seen.values())
        spent[who] = (spent[who] ?? 0) + latest - atStart;
      return spent;
    },
  };
}

/** Per payment (or download), largest first: "postgres 2.1, payments 1.6, …" and the total. */
function cpuPerItem(spent, items) {
  const shares = Object.entries(spent)
    .map(([who, ms]) => [who, ms / Math.max(items, 1)])
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const total = shares.reduce((sum, [, ms]) => sum + ms, 0);
  // The largest eight: enough to see where it goes, short enough to read in a table cell.
  const named = shares.slice(0, 8).map(([who, ms]) => `${who} ${ms.toFixed(1)}`);
  if (shares.length > 8) named.push('…');
  return { total, shares: named.join(', ') };
}

/**
 * What the machine spends with the stack started and nothing to do (its pollers, timers and
 * heartbeats), in CPU ms per second over every process `watchMachineCpu` counts. At a trickle
 * this fixed cost, spread over few payments, is most of the CPU per payment.
 */
async function idleMachineCpuPerSecond(servicePids, benchBackends, seconds) {
  const machineCpu = await watchMachineCpu(servicePids, benchBackends);
  const started = performance.now();
  await sleep(seconds * 1000);
  const spent = await machineCpu.stop();
  const elapsedSeconds = (performance.now() - started) / 1000;
  return Object.values(spent).reduce((sum, ms) => sum + ms, 0) / elapsedSeconds;
}

/** CPU milliseconds each process spent (and its peak RSS) while `work` ran. */
async function profiled(pids, work) {
  const before = Object.fromEntries(
    await Promise.all(
      Object.entries(pids).map(async ([name, pid]) => [name, await cpuAndRss(pid)]),
    ),
  );
  const peak = Object.fromEntries(Object.keys(pids).map((name) => [name, before[name].rssMiB]));
  const sampler = setInterval(async () => {
    for (const [name, pid] of Object.entries(pids))
      peak[name] = Math.max(peak[name], (await cpuAndRss(pid)).rssMiB);
  }, 250);
  try {
    const result = await work();
    const after = Object.fromEntries(
      await Promise.all(
        Object.entries(pids).map(async ([name, pid]) => [name, await cpuAndRss(pid)]),
      ),
    );
    const cpu = Object.fromEntries(
      Object.keys(pids).map((name) => [name, after[name].cpuMs - before[name].cpuMs]),
    );
    const rssGrowth = Object.fromEntries(
      Object.keys(pids).map((name) => [name, peak[name] - before[name].rssMiB]),
    );
    return { ...result, cpu, rssGrowth };
  } finally {
    clearInterval(sampler);
  }
}

/** `nextPath`, when given, picks each request's path (a spread of products). */
function load(
  url,
  { connections: conns = connections, duration = seconds, expectBytes, headers, nextPath } = {},
) {
  const requests = nextPath
    ? [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }]
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: conns, duration, pipelining: 1, headers, requests },
      (error, result) => {
        if (error) return reject(error);
        const ok = result['2xx'];
        resolve({
          requests: ok,
          errors: result.non2xx + result.errors + result.timeouts,
          rps: ok / duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          mbps: expectBytes ? (ok * expectBytes) / duration / 1e6 : result.throughput.average / 1e6,
        });
      },
    );
  });
}

const SPREAD = 10_000;

/** Product ids drawn with Zipf (s = 1) popularity: the first is asked for most, the tail rarely. */
function zipfPicker(ids) {
  const cumulative = [];
  let total = 0;
  for (let rank = 1; rank <= ids.length; rank += 1) cumulative.push((total += 1 / rank));
  return () => {
    const target = Math.random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return ids[low];
  };
}

/** Each id in turn: at fewer than SPREAD reads per cache lifetime (1 s), every read is a miss. */
function cyclePicker(ids) {
  let next = 0;
  return () => ids[next++ % ids.length];
}

/** SPREAD published copies of the seeded product, written straight into catalog's table. */
async function seedSpread(productId) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `CREATE TEMP TABLE spread AS SELECT p.* FROM catalog.products p, generate_series(1, $2) WHERE p.id = $1`,
      [productId, SPREAD],
    );
    await db.query('UPDATE spread SET id = gen_random_uuid()');
    await db.query('INSERT INTO catalog.products SELECT * FROM spread');
    const { rows } = await db.query('SELECT id FROM spread');
    return rows.map((row) => row.id).sort(() => Math.random() - 0.5);
  } finally {
    await db.end();
  }
}

/**
 * Large downloads, `conns` at a time for `duration` seconds, each by its own curl (autocannon's
 * JavaScript HTTP parser, not the server, would be what a big body measures).
 */
async function downloads(url, { conns = 8, duration = seconds, expectBytes }) {
  const deadline = performance.now() + duration * 1000;
  const started = performance.now();
  let requests = 0;
  let errors = 0;
  let bytes = 0;
  const latencies = [];
  const once = () =>
    new Promise((resolve) => {
      const curl = spawn('curl', [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{size_download} %{time_total}',
        url,
      ]);
      let out = '';
      curl.stdout.on('data', (chunk) => (out += chunk));
      curl.on('close', () => {
        const [status, size, time] = out.trim().split(' ');
        if (status === '200' && Number(size) === expectBytes) {
          requests += 1;
          bytes += Number(size);
          latencies.push(Number(time) * 1000);
        } else errors += 1;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests,
    errors,
    rps: requests / elapsed,
    p50: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    p99: Math.round(
      latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0,
    ),
    mbps: bytes / elapsed / 1e6,
  };
}

function spawnBaseline(args, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(root, 'bench', 'baseline-server.mjs'), ...args],
    { stdio: 'inherit' },
  );
  children.push(child);
  return child;
}

async function waitForPort(port) {
  await waitFor(
    async () =>
      fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      ),
    `port ${port}`,
    120_000,
  );
}

/**
 * Runs target and baseline in alternation, `rounds` times each, after one warm-up round of each
 * (JIT, caches, connection pools; printed, not counted); returns every measured round's figures.
 */
async function interleaved(label, target, baseline) {
  for (const side of ['baseline', 'target']) {
    const figures = await (side === 'target'
      ? target({ warmUp: true })
      : baseline({ warmUp: true }));
    process.stdout.write(`  ${label} ${side.padEnd(8)} warm-up: ${summary(figures)}\n`);
  }
  const runs = { target: [], baseline: [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const side of round % 2 === 0 ? ['baseline', 'target'] : ['target', 'baseline']) {
      const figures = await (side === 'target' ? target() : baseline());
      runs[side].push(figures);
      process.stdout.write(
        `  ${label} ${side.padEnd(8)} round ${round + 1}: ${summary(figures)}\n`,
      );
    }
  }
  return runs;
}

const summary = (f) =>
  `${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.mbps.toFixed(1)} MB/s${f.errors ? `, ${f.errors} errors` : ''}`;

// ─── scenarios ────────────────────────────────────────────────────────────────────────────

async function requestScenarios({ productId }) {
  const productJson = await (await fetch(`${baseUrl}/api/products/${productId}`)).text();
  const shareHtml = await (await fetch(`${baseUrl}/product/${productId}`)).text();
  const bodies = path.join(scratch, 'bodies.json');
  await writeFile(bodies, JSON.stringify({ productJson, shareHtml }));
  const basePort = gatewayPort + 100;
  spawnBaseline(['fastify', String(basePort), bodies]);
  await waitForPort(basePort);
  const pids = stack.pids();
  const results = [];
  const scenarios = [
    [
      'product',
      'GET /api/products/:id through the gateway',
      `${baseUrl}/api/products/${productId}`,
      { gateway: pids.gateway, catalog: pids.catalog },
    ],
    [
      'product-direct',
      'GET /api/products/:id straight to catalog',
      `http://127.0.0.1:${portOf('catalog')}/api/products/${productId}`,
      { catalog: pids.catalog },
    ],
    [
      'share',
      'GET /product/:id share page through the gateway, `accept-encoding: br, gzip`',
      `${baseUrl}/product/${productId}`,
      { gateway: pids.gateway, catalog: pids.catalog },
    ],
  ];
  for (const [key, label, url, measured] of scenarios) {
    if (!only.has(key)) continue;
    const baselinePath = key === 'share' ? `/product/${productId}` : `/api/products/${productId}`;
    // A page is asked for as browsers ask; comparing uncompressed bytes would hold both sides to
    // the same network-bound figure and put the ratio near 1 whatever the gateway costs.
    const headers = key === 'share' ? { 'accept-encoding': 'br, gzip' } : undefined;
    const runs = await interleaved(
      key,
      () => profiled(measured, () => load(url, { headers })),
      () => load(`http://127.0.0.1:${basePort}${baselinePath}`, { headers }),
    );
    const baselineLabel =
      key === 'share'
        ? 'bare Fastify, same page compressed once at start; both asked with `accept-encoding: br, gzip`'
        : 'bare Fastify, same bytes';
    results.push({ key, label, baselineLabel, runs, unit: 'rps' });
  }
  // One product read again and again is always a cache hit; a storefront's reads spread.
  if (only.has('product-spread')) {
    const ids = await seedSpread(productId);
    const spreads = [
      ['zipf', `Zipf (s = 1) popularity over ${SPREAD.toLocaleString('en')} products`, zipfPicker],
      [
        'miss',
        `each of ${SPREAD.toLocaleString('en')} products in turn (the cache-miss path: gateway → catalog → Postgres)`,
        cyclePicker,
      ],
    ];
    for (const [name, how, picker] of spreads) {
      const pick = picker(ids);
      const nextPath = () => `/api/products/${pick()}`;
      const runs = await interleaved(
        `product-${name}`,
        () =>
          profiled({ gateway: pids.gateway, catalog: pids.catalog }, () =>
            load(baseUrl, { nextPath }),
          ),
        () => load(`http://127.0.0.1:${basePort}`, { nextPath }),
      );
      results.push({
        key: `product-${name}`,
        label: `GET /api/products/:id through the gateway, ${how}`,
        baselineLabel: 'bare Fastify, same bytes for every id',
        runs,
        unit: 'rps',
      });
    }
  }
  return results;
}

async function ensureNginx() {
  if (spawnSync('sh', ['-c', 'command -v nginx']).status === 0) return true;
  console.log('  installing nginx (apt-get) for the download baseline…');
  const installed = spawnSync(
    'sh',
    [
      '-c',
      'apt-get install -y --no-install-recommends nginx-light || apt-get install -y --no-install-recommends nginx',
    ],
    { stdio: 'ignore' },
  );
  return installed.status === 0;
}

async function downloadScenario({ downloadUrl, storageKey, fileBytes }) {
  if (!(await ensureNginx())) {
    console.log('  nginx is not available: download baseline skipped');
    return [];
  }
  const nginxPort = gatewayPort + 101;
  const conf = path.join(scratch, 'nginx.conf');
  await writeFile(
    conf,
    `user root;\nworker_processes 1;\npid ${scratch}/nginx.pid;\nerror_log ${scratch}/nginx-error.log;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  client_body_temp_path ${scratch}/nginx-body;\n  proxy_temp_path ${scratch}/nginx-proxy;\n  fastcgi_temp_path ${scratch}/nginx-fastcgi;\n  uwsgi_temp_path ${scratch}/nginx-uwsgi;\n  scgi_temp_path ${scratch}/nginx-scgi;\n  server {\n    listen 127.0.0.1:${nginxPort};\n    root ${dataDir};\n  }\n}\n`,
  );
  const nginx = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'inherit' });
  children.push(nginx);
  await waitForPort(nginxPort);
  const edge = await startNginxEdge({
    port: gatewayPort + 102,
    deliveryUrl: `http://127.0.0.1:${portOf('delivery')}`,
    dataDir,
  });
  const pids = stack.pids();
  const options8 = { conns: 8, expectBytes: fileBytes };
  try {
    const runs = await interleaved(
      'download',
      () =>
        withMachineCpu(pids, () =>
          profiled({ delivery: pids.delivery, edge: edgePid(edge) }, () =>
            downloads(`${edge.url}${downloadUrl}`, options8),
          ),
        ),
      () =>
        withMachineCpu(pids, () =>
          downloads(`http://127.0.0.1:${nginxPort}/${storageKey}`, options8),
        ),
    );
    // The single-machine default: delivery's own Node stream sends the bytes (no edge).
    const streamed = await interleaved(
      'download-node',
      () =>
        profiled({ delivery: pids['delivery-streams'] }, () =>
          downloads(`http://127.0.0.1:${streamingDeliveryPort}${downloadUrl}`, options8),
        ),
      () => downloads(`http://127.0.0.1:${nginxPort}/${storageKey}`, options8),
    );
    return [
      {
        key: 'download',
        label: `${fileMiB} MiB download via /dl through the delivery edge (nginx → delivery, X-Accel-Redirect), 8 concurrent`,
        baselineLabel: `nginx (sendfile), same file; CPU per download over every process ${machineCpuRange(runs.baseline)}`,
        extra: `CPU per download over every process ${machineCpuRange(runs.target)}`,
        runs,
        unit: 'mbps',
      },
      {
        key: 'download-node',
        label: `${fileMiB} MiB download via /dl from delivery streaming the file itself (\`npm start\`'s default, DOWNLOAD_OFFLOAD=none; no gateway hop), 8 concurrent`,
        baselineLabel: 'nginx (sendfile), same file',
        runs: streamed,
        unit: 'mbps',
      },
    ];
  } finally {
    await edge.stop();
  }
}

/**
 * `work`'s figures with the CPU every process but the load generator spent per request meanwhile:
 * what a download costs the machine beyond the bytes, where `profiled` sees only named processes.
 */
async function withMachineCpu(pids, work) {
  const machineCpu = await watchMachineCpu(pids, [], ['curl']);
  const figures = await work();
  return { ...figures, machineCpu: cpuPerItem(await machineCpu.stop(), figures.requests) };
}

/** "5.3–6.7 ms (nginx 2.0, delivery 1.4, …)": the range over rounds, the median round's split. */
function machineCpuRange(rounds) {
  const sorted = [...rounds].sort((a, b) => a.machineCpu.total - b.machineCpu.total);
  const middle = sorted[Math.floor(sorted.length / 2)];
  return `${range(
    rounds.map((f) => f.machineCpu.total),
    1,
  )} ms (${middle?.machineCpu.shares ?? ''})`;
}

/** The edge's nginx worker (its pid file holds the master's). */
function edgePid(edge) {
  const master = Number(edge.pid);
  const child = spawnSync('pgrep', ['-P', String(master)])
    .stdout?.toString()
    .trim()
    .split('\n')[0];
  return Number(child) || master;
}

/**
 * One POST of `body` over `agent`: resolves with the answer's status (0 if the connection
 * failed) and, with `readId`, the `id` of a JSON answer (an upload's file). Without it the
 * answer is drained unread: the webhook load shares the cores with the services it measures.
 */
function postBody(agent, target, headers, body, { readId = false } = {}) {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers,
      },
      (response) => {
        const answer = [];
        if (readId) response.on('data', (chunk) => answer.push(chunk));
        else response.resume();
        response.on('end', () => {
          let id;
          if (readId) {
            try {
              id = JSON.parse(Buffer.concat(answer).toString()).id;
            } catch {
              // not JSON: a bare server's answer or an error page
            }
          }
          resolve({ status: response.statusCode, id });
        });
        response.on('error', () => resolve({ status: 0 }));
      },
    );
    request.on('error', () => resolve({ status: 0 }));
    request.end(body);
  });
}

/**
 * `count` uploads of `bytes`, `parallel` at a time, to `url`; MB/s over the whole run.
 * Sent with node:http in one write: `fetch` spent ~400 ms of CPU per 45 MiB body here (it
 * feeds the body through a web stream in small pieces) against ~15 ms, so the load generator
 * took a core the servers under test need and held both sides near 110 MB/s.
 */
async function uploads(url, headers, bytes, count, parallel) {
  // Every path starts with nothing left for the disk to write: the bare stream leaves up to
  // 180 MB unflushed, and whoever fsyncs next paid for it (the floor, measured straight after
  // it, read 0.8-0.9 of the same floor behind a proxy measured later).
  spawnSync('sync');
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  const headersWithLength = { ...headers, 'content-length': String(bytes.length) };
  const started = performance.now();
  let errors = 0;
  const latencies = [];
  const fileIds = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        const at = performance.now();
        const { status, id } = await postBody(agent, target, headersWithLength, bytes, {
          readId: true,
        });
        if (status === 0 || status >= 300) errors += 1;
        if (id) fileIds.push(id);
        latencies.push(performance.now() - at);
      }
    }),
  );
  agent.destroy();
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: count - errors,
    errors,
    rps: (count - errors) / elapsed,
    p50: Math.round(latencies[Math.floor(latencies.length / 2)]),
    p99: Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]),
    mbps: ((count - errors) * bytes.length) / elapsed / 1e6,
    fileIds,
  };
}

async function uploadScenario({ seller, sellerCookie }) {
  const body = multipart('upload.zip', randomBytes(fileMiB * 1024 * 1024));
  const streamPort = gatewayPort + 102;
  const durablePort = gatewayPort + 103;
  const proxyPort = gatewayPort + 106;
  // With the V8 settings delivery and the gateway run with, so the floor is never the weaker for
  // lacking a setting Lockdrop has.
  spawnBaseline(['stream', String(streamPort), scratch], SERVICE_NODE_ARGS.delivery);
  spawnBaseline(['durable-stream', String(durablePort), scratch], SERVICE_NODE_ARGS.delivery);
  spawnBaseline(['proxy', String(proxyPort), String(durablePort)], SERVICE_NODE_ARGS.gateway);
  await Promise.all([waitForPort(streamPort), waitForPort(durablePort), waitForPort(proxyPort)]);
  // Uploads as deployed: the nginx edge asks the gateway to admit each one, then streams the body
  // to delivery itself (deploy/base/nginx/delivery-edge.conf).
  const edge = await startNginxEdge({
    port: gatewayPort + 107,
    deliveryUrl: `http://127.0.0.1:${portOf('delivery')}`,
    gatewayUrl: baseUrl,
    dataDir,
  });
  const pids = stack.pids();
  const perRound = options.smoke ? 2 : 4;
  const send = (url, headers) => uploads(url, headers, body.body, perRound, 2);
  const bareUploads = (port) =>
    send(`http://127.0.0.1:${port}/`, { 'content-type': body.contentType });
  const sellerHeaders = {
    'content-type': body.contentType,
    cookie: sellerCookie,
    origin: `http://localhost:${gatewayPort}`,
  };
  // A seller's uploads, then deleted (by the seller, as the product allows): the bare servers
  // remove each file after answering, and files Lockdrop kept would fill the page cache round
  // after round, so its later paths paid for reclaiming memory the floor's never did (vmstat
  // showed direct reclaim only while Lockdrop's paths ran). Every path starts from the same state.
  const sellerUploads = async (url, measure = (work) => work()) => {
    const figures = await measure(() => send(url, sellerHeaders));
    for (const id of figures.fileIds) {
      const response = await seller.request(`/api/uploads/${id}`, { method: 'DELETE' });
      if (!response.ok) throw new Error(`deleting upload ${id}: ${response.status}`);
    }
    return figures;
  };
  // Besides the bare stream, in the same rounds: the floor (what no architecture around an upload
  // can skip: the file parsed out, hashed and flushed to disk); the floor behind the barest Node
  // hop (what putting any Node process in front of it costs); the gateway's path (`npm start`'s
  // default, no edge); and delivery alone (what Lockdrop's own upload costs, hops aside).
  const references = { floor: [], proxiedFloor: [], gatewayPath: [], deliveryAlone: [] };
  const report = (measured, warmUp) => {
    for (const [name, figures] of Object.entries(measured)) {
      process.stdout.write(
        `  upload ${name.padEnd(13)} ${warmUp ? 'warm-up' : `round ${references[name].length + 1}`}: ${summary(figures)}\n`,
      );
      if (!warmUp) references[name].push(figures);
    }
  };
  // Where in a round a path runs moves its figure more than a hop does (a path measured first
  // after the bare servers did better than the same path later), so the gateway's path shares
  // the target's turn, each going first in every other round.
  let edgeFirst = false;
  try {
    const runs = await interleaved(
      'upload',
      async ({ warmUp } = {}) => {
        edgeFirst = !edgeFirst;
        const throughEdge = () =>
          sellerUploads(`${edge.url}/api/uploads`, (work) =>
            profiled({ edge: edgePid(edge), gateway: pids.gateway, delivery: pids.delivery }, work),
          );
        const throughGateway = () => sellerUploads(`${baseUrl}/api/uploads`);
        const gatewayFirst = edgeFirst ? null : await throughGateway();
        const edgeFigures = await throughEdge();
        report({ gatewayPath: gatewayFirst ?? (await throughGateway()) }, warmUp);
        return edgeFigures;
      },
      async ({ warmUp } = {}) => {
        const bare = await bareUploads(streamPort);
        report(
          {
            floor: await bareUploads(durablePort),
            proxiedFloor: await bareUploads(proxyPort),
            deliveryAlone: await sellerUploads(
              `http://127.0.0.1:${portOf('delivery')}/api/uploads`,
            ),
          },
          warmUp,
        );
        return bare;
      },
    );
    const medianMbps = (figures) => median(figures.map((f) => f.mbps));
    // The floor server reached through a proxy has measured faster than reached directly (by
    // up to 1.3x, whatever the order in a round): the higher of the two is the floor, so the
    // ratio never gains from a slow reading of it.
    const floorMbps = Math.max(medianMbps(references.floor), medianMbps(references.proxiedFloor));
    const ofFloor = (figures) => (medianMbps(figures) / floorMbps).toFixed(2);
    // A reference that failed must fail the smoke test as a failed Lockdrop request does.
    const referenceErrors = Object.values(references)
      .flat()
      .reduce((sum, f) => sum + f.errors, 0);
    const floorRange = range(
      [...references.floor, ...references.proxiedFloor].map((f) => f.mbps),
      1,
    );
    return [
      {
        key: 'upload',
        label: `${fileMiB} MiB upload through the delivery edge (nginx → delivery, admitted by the gateway), 2 concurrent`,
        baselineLabel: `bare Node stream to disk; the floor (the same server parsing, hashing and fsyncing the file; the better median of it reached directly, ${ofFloor(references.floor)}, and behind a bare Node proxy, ${ofFloor(references.proxiedFloor)}) ${floorRange} MB/s = ${(floorMbps / medianMbps(runs.baseline)).toFixed(2)} of the bare stream, and Lockdrop = **${ofFloor(runs.target)} of the floor**; for reference, through the gateway (\`npm start\`'s default) = ${ofFloor(references.gatewayPath)} of the floor, and delivery alone = ${ofFloor(references.deliveryAlone)}${referenceErrors ? `; ${referenceErrors} errors in the references` : ''}`,
        runs,
        unit: 'mbps',
      },
    ];
  } finally {
    await edge.stop();
  }
}

/** Opens `count` checkouts of the product, 20 at a time, as a crowd pressing "Buy" would. */
async function openCheckouts(productId, count) {
  const buyer = client();
  const txRefs = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < count) {
        const index = next++;
        const { txRef } = await buyer.json('/api/checkout', {
          productId,
          buyerEmail: `webhook-${runId}-${randomBytes(4).toString('hex')}-${index}@example.com`,
        });
        txRefs.push(txRef);
      }
    }),
  );
  return txRefs;
}

/**
 * Posts every delivery once, `connections` at a time (autocannon), and says how many distinct
 * payments were answered 200 per second, how many deliveries in all, and the answer times.
 * `firstSent` gets the moment each payment's first notification left.
 */
function postNotifications(url, deliveries, firstSent = new Map()) {
  let cursor = 0;
  const answered = new Set();
  let errors = 0;
  const started = performance.now();
  // autocannon ends a run of `amount` requests on its one-second tick, not at the last answer:
  // any server answering 2,500 deliveries in under a second read about 2,450 a second, the floor
  // and Lockdrop alike. The run's time is taken to its last answer instead.
  let lastAnswered = started;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        // autocannon refuses more connections than requests (a small warm-up round).
        connections: Math.min(connections, deliveries.length),
        pipelining: 1,
        amount: deliveries.length,
        requests: [
          {
            method: 'POST',
            setupRequest: (request, context) => {
              const delivery = deliveries[cursor++ % deliveries.length];
              context.txRef = delivery.txRef;
              if (!firstSent.has(delivery.txRef)) firstSent.set(delivery.txRef, Date.now());
              return {
                ...request,
                headers: sandboxWebhookHeaders(sandboxWebhookSecret, delivery.raw),
                body: delivery.raw,
              };
            },
            onResponse: (status, _body, context) => {
              lastAnswered = performance.now();
              if (status === 200) answered.add(context.txRef);
              else errors += 1;
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = (lastAnswered - started) / 1000;
        resolve({
          requests: answered.size,
          errors: errors + result.errors + result.timeouts,
          rps: answered.size / elapsed,
          answeredPerSecond: result['2xx'] / elapsed,
          p50: result.latency.p50,
          p99: result.latency.p99,
          mbps: 0,
        });
      },
    );
  });
}

/**
 * Sends each delivery at its moment, `perSecond` a second from the start, whatever the answers:
 * an open load, as a provider sends notifications of payments as they happen. (autocannon's
 * `overallRate` fell 20 % short of the asked rate here: 296 of 375 a second.) Resolves with the
 * answers once every delivery is answered, and with this process's own event-loop delay while
 * it sent them: an answer is timed on this loop, so a late turn of it reads as a slow answer.
 */
function postAtRate(url, deliveries, perSecond, firstSent = new Map()) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const started = performance.now();
  const answerMs = [];
  let errors = 0;
  let sent = 0;
  let answered = 0;
  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      loopDelay.disable();
      answerMs.sort((a, b) => a - b);
      resolve({
        errors,
        sendingSeconds: (performance.now() - started) / 1000,
        p50: percentile(answerMs, 0.5),
        p99: percentile(answerMs, 0.99),
        loopDelayP99: loopDelay.percentile(99) / 1e6,
      });
    };
    const send = (delivery) => {
      if (!firstSent.has(delivery.txRef)) firstSent.set(delivery.txRef, Date.now());
      const at = performance.now();
      void postBody(
        agent,
        target,
        sandboxWebhookHeaders(sandboxWebhookSecret, delivery.raw),
        delivery.raw,
      ).then(({ status }) => {
        if (status !== 200) errors += 1;
        if (status !== 0) answerMs.push(performance.now() - at);
        if (++answered === deliveries.length) finish();
      });
    };
    const tick = () => {
      const due = Math.min(
        deliveries.length,
        Math.floor(((performance.now() - started) / 1000) * perSecond) + 1,
      );
      while (sent < due) send(deliveries[sent++]);
      if (sent < deliveries.length) setTimeout(tick, 5);
    };
    tick();
  });
}

/**
 * When each sent payment's entitlement became usable in delivery (the row's `created_at`, so the
 * poll's own period does not enter the latency), asking every 50 ms about the payments sent and
 * not yet usable only. Asking about the whole round at every poll (an 18,000-element array
 * joined twenty times a second in the steady scenario) cost Postgres more than settling them did,
 * and that cost was counted as the payments'. Resolves once `expected` payments are usable.
 */
function watchUsable(db, sent, expected, timeoutMs) {
  const usableAt = new Map();
  // One index lookup per pending payment (LATERAL): as a plain join over a few hundred
  // references the planner chose to scan every entitlement, 25 ms of Postgres per poll.
  const sql = `SELECT t.tx_ref, extract(epoch FROM u.created_at) * 1000 AS at
    FROM unnest($1::text[]) AS t (tx_ref)
    CROSS JOIN LATERAL (
      SELECT e.created_at FROM payments.purchases p
      JOIN delivery.entitlements e ON e.purchase_id = p.id
      WHERE p.tx_ref = t.tx_ref AND e.paid_at IS NOT NULL AND e.revoked_at IS NULL
    ) AS u`;
  const deadline = Date.now() + timeoutMs;
  const done = (async () => {
    for (;;) {
      const pending = [...sent.keys()].filter((txRef) => !usableAt.has(txRef));
      if (pending.length > 0)
        for (const row of (await db.query(sql, [pending])).rows)
          usableAt.set(row.tx_ref, Number(row.at));
      if (usableAt.size >= expected) return usableAt;
      if (Date.now() > deadline)
        throw new Error(
          `every entitlement usable: ${usableAt.size} of ${expected} within ${timeoutMs} ms`,
        );
      // A backlog of thousands is polled less often: the latency comes from the rows' own times.
      await sleep(pending.length > 500 ? 250 : 50);
    }
  })();
  return done;
}

/**
 * Seconds until payments has sent every e-mail it queued (receipts, sale notices). CPU per
 * payment is counted until then too: mail still queued when the entitlements are usable would
 * be work done after the count, for free.
 */
async function mailSent(db, timeoutMs) {
  const started = Date.now();
  for (;;) {
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM payments.mail_outbox WHERE attempts < 8',
    );
    if (rows[0].n === 0) return (Date.now() - started) / 1000;
    if (Date.now() - started > timeoutMs)
      throw new Error(`payments' e-mails sent: ${rows[0].n} still queued after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Where each payment's webhook → entitlement time went, from the rows' own timestamps (p50 / p90
 * / p99 per stage): first notification sent → stored (the inbox's commit), stored → its
 * settlement transaction recording the sale (the wait for a settler's claim, and the verify),
 * recording → `purchase.paid` published (the commit, then the outbox relay), published →
 * entitlement in delivery. Printed, so a run says which stage to work on next.
 */
async function latencyStages(db, firstSent) {
  const { rows } = await db.query(
    `WITH stored AS (
       SELECT tx_ref, min(received_at) AS at FROM payments.provider_events
       WHERE tx_ref = ANY($1::text[]) GROUP BY tx_ref)
     SELECT s.tx_ref, extract(epoch FROM s.at) * 1000 AS stored,
       extract(epoch FROM p.paid_at) * 1000 AS recording,
       extract(epoch FROM o.published_at) * 1000 AS published,
       extract(epoch FROM e.created_at) * 1000 AS usable
     FROM stored s
     JOIN payments.purchases p ON p.tx_ref = s.tx_ref
     JOIN payments.outbox o ON o.type = 'purchase.paid'
       AND (o.payload -> 'data' ->> 'purchaseId')::uuid = p.id
     JOIN delivery.entitlements e ON e.purchase_id = p.id`,
    [[...firstSent.keys()]],
  );
  const stages = [
    ['sent → stored', (row) => Number(row.stored) - firstSent.get(row.tx_ref)],
    ['stored → recording', (row) => Number(row.recording) - Number(row.stored)],
    ['recording → published', (row) => Number(row.published) - Number(row.recording)],
    ['published → usable', (row) => Number(row.usable) - Number(row.published)],
  ];
  return stages
    .map(([name, of]) => {
      const sorted = rows.map(of).sort((a, b) => a - b);
      return `${name} ${[0.5, 0.9, 0.99].map((share) => percentile(sorted, share)).join(' / ')}`;
    })
    .join('; ');
}

/** The Postgres backend serving a client: its CPU is the bench's, not the stack's. */
const backendPid = async (db) => (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;

/** Webhook → entitlement of each payment, sorted: its first notification sent → usable. */
const latencies = (usableAt, firstSent) =>
  [...usableAt].map(([txRef, at]) => at - firstSent.get(txRef)).sort((a, b) => a - b);

/** The provider's notifications plus 20 % duplicates (a quarter as many again), shuffled. */
const withDuplicates = (bodies) =>
  [
    ...bodies,
    ...Array.from(
      { length: Math.round(bodies.length * 0.25) },
      () => bodies[Math.floor(Math.random() * bodies.length)],
    ),
  ].sort(() => Math.random() - 0.5);

const purchasesOf = async (db, txRefs) =>
  (
    await db.query('SELECT count(*)::int AS n FROM payments.purchases WHERE tx_ref = ANY($1)', [
      txRefs,
    ])
  ).rows[0].n;

/**
 * `size` checkouts opened and charged in the sandbox provider (its own table, what Flutterwave
 * would hold): their notifications, and the deliveries to post (plus 20 % duplicates, shuffled).
 */
async function chargedNotifications(db, productId, size) {
  const txRefs = await openCheckouts(productId, size);
  const bodies = await chargeInSandbox(db, txRefs);
  return { txRefs, bodies, deliveries: withDuplicates(bodies) };
}

let webhookFloor = null;
/**
 * The webhook floor server (bare Fastify + pg: HMAC, INSERT … ON CONFLICT DO NOTHING, commit,
 * 200), started once per run and shared by the burst and the steady scenarios.
 */
function webhookFloorUrl() {
  webhookFloor ??= (async () => {
    const port = gatewayPort + 104;
    spawnBaseline(['webhook-floor', String(port), databaseUrl, sandboxWebhookSecret]);
    await waitForPort(port);
    return `http://127.0.0.1:${port}/webhook`;
  })();
  return webhookFloor;
}

const percentile = (sorted, share) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0);

/**
 * Payment notifications at volume against the floor server measured in the same run. Each
 * round opens `count` checkouts, has the sandbox provider charge them (its own table, what
 * Flutterwave would hold), and posts their Flutterwave-shaped webhooks plus 20 % duplicates,
 * `connections` at a time, through the gateway — and the same bytes to the floor server (bare
 * Fastify + pg: HMAC, INSERT … ON CONFLICT DO NOTHING, commit, 200). Ingestion (distinct
 * payments answered 200 per second, answer p99) is what the ratio compares; settlement is
 * reported apart: payments per second from the first webhook until every entitlement is usable
 * in delivery (the database polled every 50 ms), so the figure is the same whether payments
 * settles inside the request or after answering.
 */
async function webhookScenario({ productId }) {
  const count = options.smoke ? 200 : 2000;
  const floorUrl = await webhookFloorUrl();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const pollBackend = await backendPid(db);
  const pids = stack.pids();
  const settled = [];
  let payments = 0;
  let purchases = 0;
  try {
    /** One round's notifications, prepared before either side is timed. */
    let prepared = null;
    // Both sides of a round post the same notifications; whichever goes first prepares them.
    const roundFor = async (side, size) => {
      if (!prepared || prepared.usedBy.has(side))
        prepared = { ...(await chargedNotifications(db, productId, size)), usedBy: new Set() };
      prepared.usedBy.add(side);
      return prepared;
    };
    const target = async ({ warmUp } = {}) => {
      const round = await roundFor('target', warmUp ? Math.ceil(count / 5) : count);
      const firstSent = new Map();
      const machineCpu = await watchMachineCpu(pids, [pollBackend]);
      const started = Date.now();
      const figures = await profiled({ gateway: pids.gateway, payments: pids.payments }, () =>
        postNotifications(`${baseUrl}/api/webhooks/sandbox`, round.deliveries, firstSent),
      );
      const usableAt = await watchUsable(db, firstSent, round.bodies.length, 180_000);
      const settledSeconds = (Date.now() - started) / 1000;
      const mailSeconds = await mailSent(db, 180_000);
      const cpu = cpuPerItem(await machineCpu.stop(), round.bodies.length);
      const purchased = await purchasesOf(db, round.txRefs);
      const toEntitlement = latencies(usableAt, firstSent);
      const outcome = {
        ...figures,
        settledPerSecond: round.bodies.length / settledSeconds,
        toEntitlementP50: percentile(toEntitlement, 0.5),
        toEntitlementP99: percentile(toEntitlement, 0.99),
        cpuPerPayment: cpu,
      };
      process.stdout.write(
        `  webhooks ${warmUp ? 'warm-up' : 'round'}: ${outcome.answeredPerSecond.toFixed(0)} deliveries answered/s; ${purchased} purchases for ${round.bodies.length} payments; settled ${outcome.settledPerSecond.toFixed(0)} payments/s (all usable ${settledSeconds.toFixed(1)} s after the first webhook, their e-mails sent ${mailSeconds.toFixed(1)} s later); webhook → entitlement p50 ${outcome.toEntitlementP50} ms, p99 ${outcome.toEntitlementP99} ms; ${cpu.total.toFixed(1)} ms CPU per payment (${cpu.shares})\n`,
      );
      if (!warmUp) {
        settled.push(outcome);
        payments += round.bodies.length;
        purchases += purchased;
      }
      return outcome;
    };
    const floor = async ({ warmUp } = {}) => {
      const round = await roundFor('baseline', warmUp ? Math.ceil(count / 5) : count);
      return postNotifications(floorUrl, round.deliveries);
    };
    const runs = await interleaved('webhooks', target, floor);
    const duplicates = Math.round(count * 0.25);
    return [
      {
        key: 'webhooks',
        label: `payment webhooks, ${count} payments + ${duplicates} duplicates per round, ${connections} connections, through the gateway: distinct payments answered 200 per second (deliveries answered/s ${range(runs.target.map((f) => f.answeredPerSecond))})`,
        baselineLabel: `floor server (bare Fastify + pg: HMAC, INSERT … ON CONFLICT DO NOTHING, commit; deliveries answered/s ${range(runs.baseline.map((f) => f.answeredPerSecond))})`,
        extra: `**settled ${range(settled.map((f) => f.settledPerSecond))} payments/s** (first webhook → every entitlement usable); webhook → entitlement p50 ${median(settled.map((f) => f.toEntitlementP50))} ms, p99 ${median(settled.map((f) => f.toEntitlementP99))} ms; ${purchases} purchases for ${payments} payments; CPU per payment over every process until its entitlement ${range(
          settled.map((f) => f.cpuPerPayment.total),
          1,
        )} ms (${settled[0]?.cpuPerPayment.shares ?? ''})`,
        runs,
        unit: 'rps',
      },
    ];
  } finally {
    await db.end();
  }
}

/**
 * Payments at a steady offered rate (issue 31: 300 payments/s for 60 s, webhook → entitlement
 * p99 under a second): a provider sending charges as they happen, not a burst. The checkouts
 * are opened and charged first; their notifications plus 20 % duplicates then leave at a fixed
 * rate whatever the answers (`postAtRate`), and each payment's latency runs from
 * its first notification to its entitlement becoming usable in delivery. The baseline is the
 * offered rate itself: the ratio says whether settlement kept up. The answers are read against
 * the floor server's under the same open load, sent just before Lockdrop's turn (an answer p99
 * under a closed load of 100 connections is bound to about 100 ÷ the answer rate, the floor's
 * own included), beside the load generator's own event-loop delay on each side.
 */
async function steadyWebhookScenario({ productId }) {
  const perSecond = Number(options['steady-rate'] ?? (options.smoke ? 40 : 300));
  const duration = Number(options['steady-seconds'] ?? (options.smoke ? 5 : 60));
  const count = perSecond * duration;
  const warmUpSeconds = options.smoke ? 1 : 3;
  const floorUrl = await webhookFloorUrl();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const pollBackend = await backendPid(db);
  const pids = stack.pids();
  try {
    // A few seconds of the same load first, on both sides (printed, not counted), settled in
    // full before the measured load starts.
    const warmUp = await chargedNotifications(db, productId, perSecond * warmUpSeconds);
    const rate = warmUp.deliveries.length / warmUpSeconds;
    const floorWarmUp = await postAtRate(floorUrl, warmUp.deliveries, rate);
    const warmUpSent = new Map();
    const warmUpUsable = watchUsable(db, warmUpSent, warmUp.bodies.length, 120_000);
    warmUpUsable.catch(() => undefined);
    const lockdropWarmUp = await postAtRate(
      `${baseUrl}/api/webhooks/sandbox`,
      warmUp.deliveries,
      rate,
      warmUpSent,
    );
    await warmUpUsable;
    process.stdout.write(
      `  webhooks-steady warm-up: ${warmUpSeconds} s; answer p99 ${lockdropWarmUp.p99} ms, the floor's ${floorWarmUp.p99} ms\n`,
    );
    const { txRefs, bodies, deliveries } = await chargedNotifications(db, productId, count);
    // The floor server (what answering a notification cannot skip) under the same open load,
    // before Lockdrop's turn: the answer p99 to read Lockdrop's against.
    const floorAnswers = await postAtRate(floorUrl, deliveries, deliveries.length / duration);
    const idlePerSecond = await idleMachineCpuPerSecond(
      pids,
      [pollBackend],
      options.smoke ? 2 : 10,
    );
    const firstSent = new Map();
    const machineCpu = await watchMachineCpu(pids, [pollBackend]);
    const started = Date.now();
    // Watched while they are sent: the pending payments stay as few as settlement keeps them.
    const usable = watchUsable(db, firstSent, bodies.length, duration * 1000 + 180_000);
    usable.catch(() => undefined); // awaited below, once the sending is over
    const answers = await postAtRate(
      `${baseUrl}/api/webhooks/sandbox`,
      deliveries,
      deliveries.length / duration,
      firstSent,
    );
    const usableAt = await usable;
    const settledSeconds = (Date.now() - started) / 1000;
    const mailSeconds = await mailSent(db, 180_000);
    const cpu = cpuPerItem(await machineCpu.stop(), bodies.length);
    const idlePerPayment = (idlePerSecond * (Date.now() - started)) / 1000 / bodies.length;
    const cpuFigures = `${cpu.total.toFixed(1)} ms CPU per payment, of which ${idlePerPayment.toFixed(1)} ms the idle stack's own (the machine at ${idlePerSecond.toFixed(0)} ms a second with nothing to do, over the same time), so ${(cpu.total - idlePerPayment).toFixed(1)} ms for the payment itself`;
    const purchased = await purchasesOf(db, txRefs);
    const toEntitlement = latencies(usableAt, firstSent);
    const stages = await latencyStages(db, firstSent);
    const answerFigures = `answer p50 ${answers.p50} ms, p99 ${answers.p99} ms; the floor server under the same offered load p50 ${floorAnswers.p50} ms, p99 ${floorAnswers.p99} ms; the load generator's event-loop delay p99 ${answers.loopDelayP99.toFixed(0)} ms while sending to Lockdrop, ${floorAnswers.loopDelayP99.toFixed(0)} ms to the floor`;
    const figures = {
      requests: bodies.length,
      errors: answers.errors + floorAnswers.errors,
      rps: bodies.length / settledSeconds,
      p50: percentile(toEntitlement, 0.5),
      p99: percentile(toEntitlement, 0.99),
      mbps: 0,
    };
    process.stdout.write(
      `  webhooks-steady: offered ${perSecond} payments/s for ${duration} s (${(deliveries.length / duration).toFixed(0)} deliveries/s), the last answered ${answers.sendingSeconds.toFixed(1)} s after the first was sent; ${answerFigures}; ${purchased} purchases for ${bodies.length} payments; all usable ${settledSeconds.toFixed(1)} s after the first webhook, their e-mails sent ${mailSeconds.toFixed(1)} s later; webhook → entitlement p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${Math.round(toEntitlement.at(-1) ?? 0)} ms; ${cpuFigures} (${cpu.shares})\n  webhooks-steady, where the time went (p50 / p90 / p99 ms): ${stages}\n`,
    );
    return [
      {
        key: 'webhooks-steady',
        label: `payment webhooks at a steady offered ${perSecond} payments/s + 20 % duplicates for ${duration} s, through the gateway: payments settled per second, **webhook → entitlement** p50 and p99 (${answerFigures}; ${purchased} purchases for ${bodies.length} payments; ${cpuFigures})`,
        baselineText: `the offered rate: ${perSecond} payments/s; target webhook → entitlement p99 < 1000 ms`,
        ratioOverride: figures.rps / perSecond,
        runs: { target: [figures], baseline: [] },
        unit: 'rps',
        unitName: 'payments/s',
      },
    ];
  } finally {
    await db.end();
  }
}

// ─── report ───────────────────────────────────────────────────────────────────────────────

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const range = (values, digits = 0) =>
  values.length > 1
    ? `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`
    : values[0].toFixed(digits);

function report(results, pages = []) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
    .stdout.toString()
    .trim();
  const cpu = os.cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const rows = results.map(
    ({ label, baselineLabel, baselineText, ratioOverride, runs, unit, unitName, extra }) => {
      const figure = (f) => (unit === 'rps' ? f.rps : f.mbps);
      const targets = runs.target.map(figure);
      const baselines = runs.baseline.map(figure);
      const ratio = ratioOverride ?? median(targets) / median(baselines);
      const cpuPerRequest = Object.keys(runs.target[0].cpu ?? {})
        .map((name) => {
          const ms = median(runs.target.map((f) => f.cpu[name] / Math.max(f.requests, 1)));
          return `${name} ${ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`}`;
        })
        .join(', ');
      const rss = Object.keys(runs.target[0].rssGrowth ?? {})
        .map(
          (name) =>
            `${name} +${Math.max(...runs.target.map((f) => f.rssGrowth[name])).toFixed(0)} MiB`,
        )
        .join(', ');
      const unitLabel = unitName ?? (unit === 'rps' ? 'req/s' : 'MB/s');
      return {
        label,
        lockdrop: `${range(targets, unit === 'rps' ? 0 : 1)} ${unitLabel}, p50 ${median(runs.target.map((f) => f.p50))} ms, p99 ${median(runs.target.map((f) => f.p99))} ms${runs.target.some((f) => f.errors) ? `, ${runs.target.reduce((s, f) => s + f.errors, 0)} errors` : ''}${extra ? `; ${extra}` : ''}`,
        baseline:
          baselineText ??
          `${baselineLabel}: ${range(baselines, unit === 'rps' ? 0 : 1)} ${unitLabel}, p99 ${median(runs.baseline.map((f) => f.p99))} ms`,
        ratio: ratio.toFixed(2),
        cpuPerRequest,
        rss,
      };
    },
  );
  const table = [
    '| scenario | Lockdrop | baseline in the same run | ratio | CPU per request | RSS growth |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.lockdrop} | ${row.baseline} | **${row.ratio}** | ${row.cpuPerRequest} | ${row.rss} |`,
    ),
  ].join('\n');
  const pageTable = pagesTable(pages);
  console.log(`\n${table}\n\n${pageTable}\n`);
  // BENCHMARKS.md holds one whole run: a smoke, a chosen subset (`--only`) or `--no-write` leaves it as it is.
  if (options['no-write'] || options.smoke || options.only) {
    console.log('BENCHMARKS.md left as it is (only a full run writes it)');
    return;
  }
  const document = `# Benchmarks

Written by \`npm run bench\` (bench/run.mjs) — do not edit by hand; the analysis of what limits
each figure, and its history, is in [docs/performance.md](docs/performance.md).

- When: ${new Date().toISOString()}, commit \`${commit}\`
- Machine: ${machine}
- Stack: production mode (\`NODE_ENV=production\`, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}), every service one process, started by the bench
- Load: autocannon, ${connections} connections for request scenarios, ${seconds} s per side, ${rounds} rounds interleaved A/B; downloads 8 connections; uploads 2 at a time, ${options.smoke ? 2 : 4} per round
- Ranges are min–max over rounds; the ratio is median Lockdrop ÷ median baseline
- Pages: Lighthouse's mobile preset (simulated slow 4G, 4× CPU slowdown) with ${CHROMIUM}, ${rounds} runs each, medians (score range in brackets)

${table}

${pageTable}
`;
  return writeFile(path.join(root, 'BENCHMARKS.md'), document);
}

// ─── main (last: every helper above is initialised) ──────────────────────────────────────

const children = [];
let stack = null;

try {
  stack = await startStack({
    env: { ...process.env, ...productionEnv() },
    layout,
    // On a machine shared with builds and test suites a service can take minutes to listen.
    readyTimeoutMs: 300_000,
    // Straight to a file: formatting log lines here would take CPU from the services measured.
    logFile: path.join(scratch, 'services.log'),
    nodeArgs: options.profile
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`]
      : [],
  });
  const seeded = await seed();
  const results = [];
  if (['product', 'product-direct', 'product-spread', 'share'].some((key) => only.has(key)))
    results.push(...(await requestScenarios(seeded)));
  if (only.has('download')) results.push(...(await downloadScenario(seeded)));
  if (only.has('upload')) results.push(...(await uploadScenario(seeded)));
  if (only.has('webhooks')) results.push(...(await webhookScenario(seeded)));
  if (only.has('webhooks-steady')) results.push(...(await steadyWebhookScenario(seeded)));
  const pages = only.has('pages') && !options.smoke ? await pagesScenario(seeded) : [];
  await report(results, pages);
} finally {
  for (const child of children) child.kill('SIGTERM');
  // A stack that never became ready is stopped by startStack; its database and streams are ours to drop.
  await stack?.stop();
  await deleteStreams(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', `bench${runId}`).catch(
    () => undefined,
  );
  await dropDatabase(databaseUrl).catch(() => undefined);
  const lastLog = path.join(os.tmpdir(), 'lockdrop-bench-services.log');
  await copyFile(path.join(scratch, 'services.log'), lastLog).catch(() => undefined);
  console.log(`service logs of this run: ${lastLog}`);
  const logs = (await readFile(lastLog, 'utf8').catch(() => '')).split('\n');
  // pino levels: 50 error, 60 fatal.
  const errors = logs.filter((line) => /"level":(50|60)/.test(line));
  if (errors.length)
    console.log(
      `\n${errors.length} error lines in service logs, e.g.\n${errors.slice(0, 3).join('\n')}`,
    );
  await rm(scratch, { recursive: true, force: true });
}
