import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@lockdrop/testing';
import { buildApp } from '../src/app.js';
import { startWorkerHarness, type WorkerHarness } from './support.js';

let harness: WorkerHarness;
let redis: ChildProcess | undefined;

beforeAll(async () => {
  harness = await startWorkerHarness();
});
afterAll(async () => {
  redis?.kill('SIGKILL');
  await harness?.close();
});

describe('worker start-up', () => {
  it('waits for a Redis that is not up yet, then starts and reports itself ready', async () => {
    const port = await freePort();
    const config = { ...harness.config, REDIS_URL: `redis://127.0.0.1:${port}` };
    let settled = false;
    const starting = buildApp(config).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(settled).toBe(false);

    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
      stdio: 'ignore',
    });
    const app = await starting;
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 30_000);
});
