import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { withTransaction, type Pool } from '@lockdrop/db';
import type { StoredFile } from '../db/files.repo.js';
import {
  findStampedCopy,
  insertStampedCopy,
  pdfStampStatus,
  setPdfStampStatus,
  stampingOf,
  type PdfStampStatus,
  type StampedCopy,
} from '../db/stamped-copies.repo.js';
import { stampIsolated, type RenderLimits } from '../previews/isolated-render.js';
import { MAX_PARSED_INPUT_BYTES, withLocalFile } from '../previews/render.js';
import { UnstampablePdfError } from '../previews/unstampable.js';
import type { ObjectStorage } from '../storage/storage.js';

export interface StampedCopiesDeps {
  pool: Pool;
  storage: ObjectStorage;
  limits: RenderLimits;
}

/** The line in every page's footer of a buyer's copy. */
export const licenceLine = (buyerEmail: string) => `Licensed to ${buyerEmail}`;

/**
 * Buyers' own copies of PDFs, stamped with their e-mail (a product's `stampPdfs` option): made
 * on the first download in the isolated render process, kept per buyer and file, and served
 * from storage like any file afterwards (Range, resume and offloading work the same). A PDF that
 * cannot be stamped (encrypted, malformed, too big to parse) is remembered as such and its
 * buyers get the original; the seller sees why on the product's edit screen.
 */
export function createStampedCopies({ pool, storage, limits }: StampedCopiesDeps) {
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

  return {
    /**
     * What to send `buyerEmail` for `file`: their stamped copy (made now if this is the first
     * time), or null for the original — the option is off, the file is no PDF, or it cannot be
     * stamped. Concurrent first downloads of one copy wait for each other; one copy is made.
     */
    async copyFor(
      product: { stampPdfs: boolean } | null,
      file: StoredFile,
      buyerEmail: string,
    ): Promise<StampedCopy | null> {
      if (!product?.stampPdfs || file.kind !== 'pdf') return null;
      const { status, copy: existing } = await stampingOf(pool, file.id, buyerEmail);
      if (status !== null && status !== 'available') return null;
      if (existing) return existing;
      return withTransaction(pool, async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `stamp:${file.id}:${buyerEmail.toLowerCase()}`,
        ]);
        const made = await findStampedCopy(tx, file.id, buyerEmail);
        if (made) return made;
        let copy: StampedCopy;
        try {
          copy = await make(file, buyerEmail);
        } catch (error) {
          if (!(error instanceof UnstampablePdfError)) throw error;
          await setPdfStampStatus(tx, file.id, error.reason);
          return null;
        }
        try {
          await insertStampedCopy(tx, copy);
          await setPdfStampStatus(tx, file.id, 'available');
        } catch (error) {
          await storage.delete(copy.storageKey).catch(() => undefined);
          throw error;
        }
        return copy;
      });
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
    },
  };
}

export type StampedCopies = ReturnType<typeof createStampedCopies>;
