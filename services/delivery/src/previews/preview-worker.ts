import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type EventData } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient, isOutage } from '@lockdrop/db';
import { findFile } from '../db/files.repo.js';
import {
  claimRender,
  completeRender,
  recordRenderFailure,
  recordRenderRetry,
  renderChannelSql,
  type RenderedPreview,
  type RenderJob,
} from '../db/previews.repo.js';
import { findProduct } from '../db/products.repo.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { PreviewImage } from './image.js';
import { UnrenderableFileError } from './isolated-render.js';
import { cardFor, renderPreview, type RenderOptions } from './render.js';

export interface WorkerLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface PreviewWorkerOptions {
  pool: Pool;
  storage: ObjectStorage;
  /** Renders at once in this process: rendering is CPU-heavy, so about the core count. */
  concurrency: number;
  logger: WorkerLogger;
  /** How untrusted files are rendered: limits of the render process, ffmpeg if present. */
  render: RenderOptions;
  /** Safety net for a missed NOTIFY (listener reconnecting); NOTIFY normally wakes a worker at once. */
  pollIntervalMs?: number;
}

export interface PreviewWorker {
  /** Lets renders in progress finish, then releases the listener connection. */
  stop(): Promise<void>;
}

const MAX_ATTEMPTS = 3;
const RETRY_DELAY_SECONDS = 10;
const LISTENER_RECONNECT_MS = 2_000;

class PermanentRenderError extends Error {}

/**
 * Renders pending previews in the background, `concurrency` at a time, from the `previews`
 * table used as a queue (leases + SKIP LOCKED, so replicas share it and a crashed render is
 * picked up again). A finished render is kept only if the product still wants that revision;
 * it is recorded with `file.processed` in one transaction. Failures retry, then mark the
 * preview failed.
 */
export function startPreviewWorker(options: PreviewWorkerOptions): PreviewWorker {
  const { pool, storage, logger, pollIntervalMs = 2_000 } = options;
  let stopping = false;
  let signalled = false;
  const sleepers = new Set<() => void>();

  const wake = () => {
    signalled = true;
    for (const sleeper of sleepers) sleeper();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (signalled || stopping) return resolve();
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  async function runSlot(): Promise<void> {
    while (!stopping) {
      signalled = false;
      let job: RenderJob | null = null;
      try {
        job = await claimRender(pool);
        if (job) await render(job);
      } catch (error) {
        logger[isOutage(error) ? 'warn' : 'error'](
          { err: error, productId: job?.productId },
          'preview render loop error',
        );
      }
      if (!job) await sleep(pollIntervalMs);
    }
  }

  async function render(job: RenderJob): Promise<void> {
    const started = Date.now();
    // Every claim counts, not only the renders that threw: a file that kills the process mid-render
    // leaves no error behind, only an expired lease, and must not take every replica down forever.
    if (job.attempts > MAX_ATTEMPTS)
      return recordFailure(
        job,
        new PermanentRenderError(
          `gave up after ${MAX_ATTEMPTS} claims that never finished (the renderer died or hung)`,
        ),
      );
    try {
      const [file, product] = await Promise.all([
        findFile(pool, job.fileId),
        findProduct(pool, job.productId),
      ]);
      if (!file) throw new PermanentRenderError('the product file does not exist');
      // Catalog checks this too; a preview must never expose another seller's file.
      if (!product || file.ownerId !== product.ownerId)
        throw new PermanentRenderError('the file does not belong to the seller');
      const rendered = await storeImage(
        job,
        file.kind,
        await renderPreview(storage, file, job.blurPercentage, options.render),
      );
      const objectKey = rendered.objectKey;
      const outcome = await withTransaction(pool, async (tx) => {
        const result = await completeRender(tx, job, rendered);
        if (result.current) {
          await enqueueProcessed(tx, job, {
            fileId: file.id,
            ownerId: file.ownerId,
            kind: file.kind,
            previewAvailable: true,
          });
        }
        return result;
      });
      if (!outcome.current) await storage.delete(objectKey);
      else if (outcome.replacedKey) await removeQuietly(outcome.replacedKey);
      logger.info(
        {
          productId: job.productId,
          kind: file.kind,
          ms: Date.now() - started,
          current: outcome.current,
        },
        'preview rendered',
      );
    } catch (error) {
      await recordFailure(job, error);
    }
  }

  async function recordFailure(job: RenderJob, error: unknown): Promise<void> {
    const final =
      error instanceof PermanentRenderError ||
      error instanceof UnrenderableFileError ||
      job.attempts >= MAX_ATTEMPTS;
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(
      { productId: job.productId, attempt: job.attempts, final, err: message },
      'preview render failed',
    );
    if (!final) {
      await recordRenderRetry(pool, job, message, RETRY_DELAY_SECONDS * job.attempts);
      return;
    }
    const [file, product] = await Promise.all([
      findFile(pool, job.fileId),
      findProduct(pool, job.productId),
    ]);
    // A card names the file: only ever for the seller's own file, like the preview itself.
    const card =
      file && product && file.ownerId === product.ownerId ? await storeTypeCard(job, file) : null;
    const outcome = await withTransaction(pool, async (tx) => {
      const result = await recordRenderFailure(tx, job, message, card);
      if (result.current && file)
        await enqueueProcessed(tx, job, {
          fileId: file.id,
          ownerId: file.ownerId,
          kind: file.kind,
          previewAvailable: card !== null,
        });
      return result;
    });
    if (!outcome.current && card) await removeQuietly(card.objectKey);
    else if (outcome.replacedKey) await removeQuietly(outcome.replacedKey);
  }

  /** The card buyers see instead: drawn from our own template, so it cannot fail like the file did. */
  async function storeTypeCard(
    job: RenderJob,
    file: NonNullable<Awaited<ReturnType<typeof findFile>>>,
  ): Promise<RenderedPreview | null> {
    try {
      const card = await cardFor(file);
      return await storeImage(job, file.kind, card);
    } catch (error) {
      logger.error({ err: error, productId: job.productId }, 'could not store a type card');
      return null;
    }
  }

  async function storeImage(
    job: RenderJob,
    kind: RenderedPreview['kind'],
    preview: PreviewImage,
  ): Promise<RenderedPreview> {
    const objectKey = `previews/${job.productId}/${job.revision}-${randomBytes(6).toString('hex')}.jpg`;
    await storage.put(objectKey, Readable.from([preview.image]));
    return {
      kind,
      objectKey,
      contentType: preview.contentType,
      etag: createHash('sha256').update(preview.image).digest('hex').slice(0, 32),
      width: preview.width,
      height: preview.height,
    };
  }

  async function enqueueProcessed(
    tx: PoolClient,
    job: RenderJob,
    data: Omit<EventData<'file.processed'>, 'blurPercentage'>,
  ): Promise<void> {
    await enqueueEvent(
      tx,
      createEvent(
        'file.processed',
        { ...data, blurPercentage: job.blurPercentage },
        { correlationId: job.correlationId },
      ),
    );
  }

  async function removeQuietly(key: string): Promise<void> {
    await storage
      .delete(key)
      .catch((error: unknown) =>
        logger.warn({ err: error, key }, 'could not remove a replaced preview'),
      );
  }

  async function listen(): Promise<void> {
    while (!stopping) {
      let client: PoolClient | undefined;
      try {
        client = await pool.connect();
        const lost = new Promise<void>((_, reject) => {
          client!.on('error', reject);
          client!.on('end', () => reject(new Error('listener connection ended')));
        });
        lost.catch(() => undefined);
        client.on('notification', wake);
        const { rows } = await client.query<{ channel: string }>(
          `SELECT ${renderChannelSql} AS channel`,
        );
        await client.query(`LISTEN "${rows[0]!.channel}"`);
        wake();
        await Promise.race([lost, whenStopping]);
      } catch (error) {
        if (!stopping)
          logger.warn(
            { err: error },
            'preview listener lost its connection; polling covers until it is back',
          );
      } finally {
        // Destroyed, not returned: a pooled connection must not keep a LISTEN registration.
        client?.release(true);
      }
      if (!stopping)
        await Promise.race([
          new Promise((resolve) => setTimeout(resolve, LISTENER_RECONNECT_MS)),
          whenStopping,
        ]);
    }
  }

  let resolveStopping!: () => void;
  const whenStopping = new Promise<void>((resolve) => {
    resolveStopping = resolve;
  });
  const slots = Array.from({ length: options.concurrency }, () => runSlot());
  const listener = listen();

  return {
    async stop() {
      stopping = true;
      resolveStopping();
      wake();
      await Promise.all([...slots, listener]);
    },
  };
}
