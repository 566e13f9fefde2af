import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testEnv, testNamespace } from '@lockdrop/testing';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const namespace = testNamespace();
const connection = new Redis(testEnv.redisUrl, { maxRetriesPerRequest: null });

afterAll(async () => {
  const keys = await connection.keys(`${namespace}:*`);
  if (keys.length > 0) await connection.del(...keys);
  await connection.quit();
});

const jobs = (...args: string[]) =>
  run('node', ['tools/jobs.mjs', ...args], {
    env: { ...process.env, REDIS_URL: testEnv.redisUrl, BUS_NAMESPACE: namespace },
  });

it('lists failed jobs with their reason and retries them for an operator', async () => {
  const queue = new Queue('payouts', { connection, prefix: namespace });
  let failNext = true;
  const worker = new Worker(
    'payouts',
    async () => {
      if (failNext) throw new Error('provider down for maintenance');
    },
    { connection, prefix: namespace },
  );
  try {
    const job = await queue.add('send', { payoutId: 'p-1' }, { jobId: 'p-1', removeOnFail: false });
    await expect.poll(() => job.isFailed(), { timeout: 10_000 }).toBe(true);

    const listed = await jobs('failed', 'payouts');
    expect(listed.stdout).toContain('p-1  after 1 attempt(s): provider down for maintenance');
    expect(listed.stdout).toContain('1 failed job(s) in payouts');

    failNext = false;
    const retried = await jobs('retry', 'payouts');
    expect(retried.stdout).toContain('1 failed job(s) in payouts queued again');
    await expect.poll(() => job.isCompleted(), { timeout: 10_000 }).toBe(true);
    await expect(jobs('retry', 'no-such-queue')).rejects.toMatchObject({ code: 64 });
  } finally {
    await worker.close();
    await queue.close();
  }
});
