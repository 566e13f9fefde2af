// `npm run jobs -- failed [queue]` lists the worker's failed BullMQ jobs (kept until retried);
// `npm run jobs -- retry <queue>` puts them back to run once the cause is fixed. A payout job is
// safe to retry: it asks the provider for the payout's reference before sending anything.
// Reads REDIS_URL (redis://127.0.0.1:6379) and BUS_NAMESPACE (lockdrop, the queues' prefix).
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

const QUEUES = ['payouts', 'payout-runs', 'fx-rates', 'retention'];
const [command, name] = process.argv.slice(2);
if (!['failed', 'retry'].includes(command) || (command === 'retry' && !QUEUES.includes(name))) {
  console.error(
    `usage: npm run jobs -- failed [queue] | retry <queue>   (queues: ${QUEUES.join(', ')})`,
  );
  process.exit(64);
}
const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: null,
});
const prefix = process.env.BUS_NAMESPACE ?? 'lockdrop';
try {
  for (const queueName of name ? [name] : QUEUES) {
    const queue = new Queue(queueName, { connection, prefix });
    const failed = await queue.getFailed();
    if (command === 'failed') {
      for (const job of failed) {
        console.log(
          [
            new Date(job.finishedOn ?? job.timestamp).toISOString(),
            queueName,
            job.id,
            `after ${job.attemptsMade} attempt(s): ${job.failedReason}`,
          ].join('  '),
        );
      }
      console.log(`${failed.length} failed job(s) in ${queueName}`);
    } else {
      await queue.retryJobs({ state: 'failed' });
      console.log(`${failed.length} failed job(s) in ${queueName} queued again`);
    }
    await queue.close();
  }
} finally {
  await connection.quit();
}
