import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import type { StoredFile } from '../db/files.repo.js';
import {
  evictStampedCopies,
  findStampedCopy,
  keepStampedCopy,
  pdfStampStatus,
  setPdfStampStatus,
  stampingOf,
  touchStampedCopy,
  type PdfStampStatus,
  type StampedCopy,
} from '../db/stamped-copies.repo.js';
import { stampIsolated, type RenderLimits } from '../previews/isolated-render.js';
import { MAX_PARSED_INPUT_BYTES, withLocalFile } from '../previews/render.js';
import { StampInterruptedError, UnstampablePdfError } from '../previews/unstampable.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { Logger } from './uploads.js';
import { StampPendingError, type StampQueue } from './stamp-queue.js';

export interface StampedCopiesDeps {
  pool: Pool;
  storage: ObjectStorage;
  limits: RenderLimits;
  /** Every stamping process passes through it (STAMP_CONCURRENCY and its queue). */
  queue: StampQueue;
  /** Stamped copies kept in all (STAMPED_COPIES_MAX_BYTES); past it the least recently served go. */
  maxStoredBytes: number;
  logger: Logger;
}

/** What a client is told to wait before asking again while its copy is made. */
export const COPY_RETRY_AFTER_SECONDS = 5;

export const stampErrors = {
  /** Retryable: the copy is being made (or waits its turn); the web shows 'Preparing your copy…'. */
  copyPreparing: () =>
    new AppError('copy_preparing', 503, 'Preparing your copy… please try again in a few seconds', {
      retryAfterSeconds: COPY_RETRY_AFTER_SECONDS,
    }),
};

/** The line in every page's footer of a buyer's copy. */
export const licenceLine = (buyerEmail: string) => `Licensed to ${buyerEmail}`;

/**
 * Buyers' own copies of PDFs, stamped with their e-mail (a product's `stampPdfs` option): made
 * on the first download in the isolated render process, kept per buyer and file, and served
 * from storage like any file afterwards (Range, resume and offloading work the same). A PDF that
 * cannot be stamped (encrypted, malformed, too big to parse) is remembered as such and its
 * buyers get the original; the seller sees why on the product's edit screen.
 *
 * Stamping is bounded (`queue`): a request waits its turn for a while, then is answered
 * `copy_preparing` (503, Retry-After) while the copy is still made. No transaction is open while
 * the process runs: the copy is made first, then recorded in a short one, where the pair's
 * primary key lets one copy win a race between replicas (the loser's object is deleted).
 */
export function createStampedCopies({
  pool,
  storage,
  limits,
  queue,
  maxStoredBytes,
  logger,
}: StampedCopiesDeps) {
  /** Runs the stamp over a local copy of `file` and stores the result under a fresh key. */
  async function make(file: StoredFile, buyerEmail: string): Promise<StampedCopy> {
    if (file.sizeBytes > MAX_PARSED_INPUT_BYTES) throw new UnstampablePdfError('too_large');
    const dir = await mkdtemp(path.join(tmpdir(), 'lockdrop-stamp-'));
    try {
      const outputPath = path.join(dir, 'stamped.pdf');
      await withLocalFile(storage, file.storageKey, (inputPath) =>
        stampIsolated({ inputPath, outputPath, text: licenceLine(buyerEmail) }, limits),
      );
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      const storageKey = `stamped/${file.id}/${randomUUID()}.pdf`;
      const { sizeBytes } = await storage.put(
        storageKey,
        createReadStream(outputPath).pipe(hashing),
      );
      return { fileId: file.id, buyerEmail, storageKey, sizeBytes, sha256: hash.digest('hex') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function deleteObjects(keys: string[]): Promise<void> {
    for (const key of keys)
      await storage
        .delete(key)
        .catch((error: unknown) =>
          logger.warn({ err: error, storageKey: key }, 'could not remove a stamped copy'),
        );
  }

  /** Makes the copy outside any transaction, then records it (and evicts) in a short one. */
  async function makeAndKeep(file: StoredFile, buyerEmail: string): Promise<StampedCopy | null> {
    const already = await findStampedCopy(pool, file.id, buyerEmail);
    if (already) return already;
    let made: StampedCopy;
    try {
      made = await make(file, buyerEmail);
    } catch (error) {
      if (!(error instanceof UnstampablePdfError)) throw error;
      await setPdfStampStatus(pool, file.id, error.reason);
      return null;
    }
    let kept: StampedCopy;
    let evicted: string[];
    try {
      ({ kept, evicted } = await withTransaction(pool, async (tx) => {
        const kept = await keepStampedCopy(tx, made);
        if (!kept) throw new StampInterruptedError('the copy kept by a racing replica is gone');
        await setPdfStampStatus(tx, file.id, 'available');
        return { kept, evicted: await evictStampedCopies(tx, maxStoredBytes, kept.storageKey) };
      }));
    } catch (error) {
      await deleteObjects([made.storageKey]);
      throw error;
    }
    await deleteObjects(
      kept.storageKey === made.storageKey ? evicted : [...evicted, made.storageKey],
    );
    return kept;
  }

  /** `work` through the queue; not ready in time, or killed on the way: come back later. */
  async function queued<T>(key: string, work: () => Promise<T>): Promise<T> {
    const logged = () =>
      work().catch((error: unknown) => {
        // Once per job, waited for or not: an operator sees stamps that keep dying.
        if (error instanceof StampInterruptedError)
          logger.warn({ err: error, job: key }, 'stamping interrupted; it is tried again later');
        throw error;
      });
    try {
      return await queue.run(key, logged);
    } catch (error) {
      if (error instanceof StampPendingError || error instanceof StampInterruptedError)
        throw stampErrors.copyPreparing();
      throw error;
    }
  }

  return {
    /**
     * What to send `buyerEmail` for `file`: their stamped copy (made now if this is the first
     * time), or null for the original — the option is off, the file is no PDF, or it cannot be
     * stamped. Concurrent first downloads of one copy share one job; one copy is kept. Throws
     * `copy_preparing` while the copy is not ready: never the original in its place.
     */
    async copyFor(
      product: { stampPdfs: boolean } | null,
      file: StoredFile,
      buyerEmail: string,
    ): Promise<StampedCopy | null> {
      if (!product?.stampPdfs || file.kind !== 'pdf') return null;
      const { status, copy: existing } = await stampingOf(pool, file.id, buyerEmail);
      if (status !== null && status !== 'available') return null;
      if (existing) {
        await touchStampedCopy(pool, existing);
        return existing;
      }
      const email = buyerEmail.toLowerCase();
      return queued(`copy:${file.id}:${email}`, () => makeAndKeep(file, email));
    },

    /**
     * The copy `copyFor` would send, when it has been made already; never makes one. For the
     * sizes a buyer is shown before downloading: a copy not yet made counts as the original.
     */
    async existingCopyFor(
      product: { stampPdfs: boolean } | null,
      file: StoredFile,
      buyerEmail: string,
    ): Promise<StampedCopy | null> {
      if (!product?.stampPdfs || file.kind !== 'pdf') return null;
      const { status, copy } = await stampingOf(pool, file.id, buyerEmail);
      return status === null || status === 'available' ? copy : null;
    },

    /**
     * Whether buyers of `file` would get a stamped copy, for the seller's edit screen: learned
     * by stamping a sample copy the first time it is asked (and kept).
     */
    async statusOf(file: StoredFile): Promise<PdfStampStatus | 'not_pdf'> {
      if (file.kind !== 'pdf') return 'not_pdf';
      const known = await pdfStampStatus(pool, file.id);
      if (known) return known;
      return queued(`sample:${file.id}`, async () => {
        let status: PdfStampStatus = 'available';
        try {
          const sample = await make(file, 'buyer@example.com');
          await storage.delete(sample.storageKey);
        } catch (error) {
          if (!(error instanceof UnstampablePdfError)) throw error;
          status = error.reason;
        }
        await setPdfStampStatus(pool, file.id, status);
        return status;
      });
    },
  };
}

export type StampedCopies = ReturnType<typeof createStampedCopies>;
