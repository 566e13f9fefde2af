import { Queue, Worker, type JobsOptions, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobRuntimeOptions {
  /** One ioredis connection with `maxRetriesPerRequest: null` (stack notes #8); workers duplicate it. */
  connection: Redis;
  /** Key prefix in Redis: the bus namespace, so parallel stacks and test files never share queues. */
  prefix: string;
  metricsRegistry: Registry;
  logger: Logger;
}

export interface Schedule {
  /** Cron pattern, evaluated in `tz`. */
  pattern: string;
  tz: string;
}

/**
 * The BullMQ queues of this process, one per kind of job: each job kind registers its processor
 * and, if it runs on a schedule, its scheduler. Failed jobs are kept (retry them with BullMQ's
 * tools) and counted on /metrics with the queue depth; /readyz checks that every scheduler exists.
 */
export interface JobRuntime {
  queue<Data>(name: string): Queue<Data>;
  process<Data>(
    name: string,
    processor: Processor<Data>,
    options?: { concurrency?: number },
  ): Worker<Data>;
  /** Creates or updates the scheduler `schedulerId` that adds a job to `queueName` on `schedule`. */
  schedule<Data>(
    queueName: string,
    schedulerId: string,
    schedule: Schedule,
    job: { name: string; data: Data; opts?: JobsOptions },
  ): Promise<void>;
  /** Throws when a scheduler registered here is missing in Redis. */
  checkSchedulers(): Promise<void>;
  close(): Promise<void>;
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export function createJobRuntime(options: JobRuntimeOptions): JobRuntime {
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const schedulers: { queue: string; id: string }[] = [];
  const { connection, prefix, logger } = options;

  const queue = <Data>(name: string): Queue<Data> => {
    let existing = queues.get(name);
    if (!existing) {
      existing = new Queue(name, {
        connection,
        prefix,
        // Completed jobs are bookkeeping; failed ones are kept for an operator to read and retry.
        defaultJobOptions: {
          removeOnComplete: { age: 24 * 3600, count: 1000 },
          removeOnFail: false,
        },
      });
      existing.on('error', (error) => logger.warn({ err: error, queue: name }, 'queue error'));
      queues.set(name, existing);
    }
    return existing as Queue<Data>;
  };

  new Gauge({
    name: 'worker_queue_jobs',
    help: 'BullMQ jobs per queue and state (failed jobs are kept until retried or removed)',
    labelNames: ['queue', 'state'],
    registers: [options.metricsRegistry],
    async collect() {
      this.reset();
      for (const [name, q] of queues) {
        const counts = await q.getJobCounts(...JOB_STATES);
        for (const state of JOB_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
      }
    },
  });

  return {
    queue,
    process<Data>(
      name: string,
      processor: Processor<Data>,
      processOptions: { concurrency?: number } = {},
    ): Worker<Data> {
      queue(name);
      const worker = new Worker<Data>(name, processor, {
        connection,
        prefix,
        concurrency: processOptions.concurrency ?? 1,
      });
      worker.on('failed', (job, error) =>
        logger.warn(
          { err: error, queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade },
          'job failed',
        ),
      );
      worker.on('error', (error) => logger.warn({ err: error, queue: name }, 'worker error'));
      workers.push(worker as Worker);
      return worker;
    },
    async schedule(queueName, schedulerId, schedule, job) {
      await queue(queueName).upsertJobScheduler(
        schedulerId,
        { pattern: schedule.pattern, tz: schedule.tz },
        { name: job.name, data: job.data, opts: job.opts },
      );
      schedulers.push({ queue: queueName, id: schedulerId });
    },
    async checkSchedulers() {
      for (const scheduler of schedulers) {
        const found = await queue(scheduler.queue).getJobScheduler(scheduler.id);
        if (!found) throw new Error(`scheduler ${scheduler.id} is missing`);
      }
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
