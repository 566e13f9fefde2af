import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { planById, type Plan } from '@lockdrop/plans';
import type { AuthUser } from '@lockdrop/auth';
import { fileTypeFromBuffer } from 'file-type';
import {
  countUpload,
  deleteFile,
  findFile,
  insertFile,
  uploadsInMonth,
  type StoredFile,
} from '../db/files.repo.js';
import { deleteStampedCopies } from '../db/stamped-copies.repo.js';

export type { StoredFile };
import { previewStatusOfFile } from '../db/previews.repo.js';
import { isFileEntitled } from '../db/entitlements.repo.js';
import { isFileUsedByProduct } from '../db/products.repo.js';
import { findSellerPlan } from '@lockdrop/bus';
import type { ObjectStorage } from '../storage/storage.js';
import { fileExtension, sanitizeFileName } from './file-name.js';
import { fileKind } from './file-kind.js';
import { FileTooLargeError, UploadMeter } from './upload-meter.js';

/** A file part as it arrives: its bytes are read exactly once, straight into storage. */
export interface IncomingFile {
  /** As the client named it; never trusted. */
  fileName: string;
  stream: Readable;
  /** True when the transport cut the stream at its own size limit. */
  truncated(): boolean;
}

export interface Logger {
  warn(details: object, message: string): void;
}

const MB = 1024 * 1024;

export function fileTooLarge(plan: Plan): AppError {
  return new AppError(
    'file_too_large',
    413,
    `File size must be less than ${Math.round(plan.maxFileBytes / MB)}MB`,
    {
      maxBytes: plan.maxFileBytes,
      plan: plan.id,
    },
  );
}

export function fileNotFound(): AppError {
  return new AppError('file_not_found', 404, 'File not found');
}

/** Calendar month in UTC, as the first day: `2026-11-01`. */
function monthOf(date: Date): { month: string; resetsAt: Date } {
  const start = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  return {
    month: start.toISOString().slice(0, 10),
    resetsAt: new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)),
  };
}

function quotaExceeded(plan: Plan, used: number, resetsAt: Date): AppError {
  const resets = resetsAt.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return new AppError(
    'upload_quota_exceeded',
    403,
    `Your ${plan.name} plan allows ${plan.uploadsPerMonth} uploads per month and you have used them all. ` +
      `Upgrade your plan to upload more, or wait until ${resets}.`,
    { plan: plan.id, limit: plan.uploadsPerMonth, used, resetsAt: resetsAt.toISOString() },
  );
}

/** `{userId}/{timestamp}-{random}.{ext}` (spec §3, storage bucket). */
function storageKeyFor(ownerId: string, extension: string | null): string {
  return `${ownerId}/${Date.now()}-${randomBytes(8).toString('hex')}.${extension ?? 'bin'}`;
}

export function createUploadService({
  pool,
  storage,
  logger,
}: {
  pool: Pool;
  storage: ObjectStorage;
  logger: Logger;
}) {
  /**
   * The seller's plan: billing's latest word (plan.changed) when there is one, else the access
   * token's claim. A plan just paid for applies to the next upload, not the next token.
   */
  async function planOf(user: AuthUser): Promise<Plan> {
    return planById((await findSellerPlan(pool, user.id)) ?? user.plan);
  }

  /** Refuses before any byte is read when this month's uploads are used up. */
  async function assertUploadAllowed(user: AuthUser, now = new Date()): Promise<void> {
    const plan = await planOf(user);
    if (plan.uploadsPerMonth === null) return;
    const { month, resetsAt } = monthOf(now);
    const used = await uploadsInMonth(pool, user.id, month);
    if (used >= plan.uploadsPerMonth) throw quotaExceeded(plan, used, resetsAt);
  }

  /** This calendar month's uploads against the plan's allowance (the dashboard's plan card). */
  async function usage(user: AuthUser, now = new Date()) {
    const plan = await planOf(user);
    const { month, resetsAt } = monthOf(now);
    return {
      plan: plan.id,
      used: await uploadsInMonth(pool, user.id, month),
      limit: plan.uploadsPerMonth,
      resetsAt: resetsAt.toISOString(),
    };
  }

  /** Bytes up to the plan's limit; one more byte and the transport must fail the stream. */
  async function maxBytesFor(user: AuthUser): Promise<number> {
    return (await planOf(user)).maxFileBytes;
  }

  /**
   * Streams the file into storage (hashing and measuring it on the way), sniffs its type from
   * its first bytes, then records it and `file.uploaded` in one transaction. Whatever fails —
   * the size limit, the client going away, the quota, the database — leaves no object behind.
   */
  async function store(
    user: AuthUser,
    incoming: IncomingFile,
    correlationId: string,
  ): Promise<StoredFile> {
    const plan = await planOf(user);
    const fileName = sanitizeFileName(incoming.fileName);
    const extension = fileExtension(fileName);
    const storageKey = storageKeyFor(user.id, extension);
    const meter = new UploadMeter(plan.maxFileBytes);

    try {
      await storage.put(
        storageKey,
        pipeline(incoming.stream, meter, () => undefined),
      );
    } catch (error) {
      if (error instanceof FileTooLargeError || incoming.truncated()) throw fileTooLarge(plan);
      throw error;
    }
    const { sizeBytes, sha256, head } = meter.result();
    if (incoming.truncated() || sizeBytes === 0) {
      await storage.delete(storageKey);
      if (sizeBytes === 0) throw new AppError('file_empty', 400, 'The file is empty');
      throw fileTooLarge(plan);
    }
    const sniffed = await fileTypeFromBuffer(head);

    try {
      return await withTransaction(pool, async (tx) => {
        const { month, resetsAt } = monthOf(new Date());
        if (!(await countUpload(tx, user.id, month, plan.uploadsPerMonth))) {
          throw quotaExceeded(plan, plan.uploadsPerMonth ?? 0, resetsAt);
        }
        const file = await insertFile(tx, {
          id: randomUUID(),
          ownerId: user.id,
          storageKey,
          fileName,
          sizeBytes,
          contentType: sniffed?.mime ?? 'application/octet-stream',
          sha256,
          kind: fileKind(extension, sniffed?.mime ?? null),
        });
        await enqueueEvent(
          tx,
          createEvent(
            'file.uploaded',
            {
              fileId: file.id,
              ownerId: file.ownerId,
              fileName,
              sizeBytes,
              contentType: file.contentType,
              sha256,
            },
            { correlationId },
          ),
        );
        return file;
      });
    } catch (error) {
      await storage.delete(storageKey).catch((cause: unknown) => {
        logger.warn(
          { err: cause, storageKey },
          'could not remove the object of an unrecorded upload',
        );
      });
      throw error;
    }
  }

  /** Only the owner sees a file; for anyone else it does not exist. */
  async function describe(user: AuthUser, fileId: string) {
    const file = await findFile(pool, fileId);
    if (!file || file.ownerId !== user.id) throw fileNotFound();
    return { ...file, previewStatus: await previewStatusOfFile(pool, fileId) };
  }

  /** Deletes the record first: an object whose removal fails is an orphan, never a dangling record. */
  async function remove(user: AuthUser, fileId: string): Promise<void> {
    const file = await findFile(pool, fileId);
    if (!file || file.ownerId !== user.id) throw fileNotFound();
    if (await isFileUsedByProduct(pool, fileId)) {
      throw new AppError(
        'file_in_use',
        409,
        'This file belongs to a product; delete or change the product first',
      );
    }
    // Buyers keep their downloads after the product is gone; only a refund ends them.
    if (await isFileEntitled(pool, fileId)) {
      throw new AppError(
        'file_in_use',
        409,
        'Buyers have paid for this file, so it is kept for them to download',
      );
    }
    await deleteFile(pool, fileId);
    // Copies stamped for buyers whose purchases were refunded go with it.
    for (const key of await deleteStampedCopies(pool, fileId))
      await storage.delete(key).catch((cause: unknown) => {
        logger.warn({ err: cause, storageKey: key }, 'could not remove a stamped copy');
      });
    await storage.delete(file.storageKey).catch((cause: unknown) => {
      logger.warn(
        { err: cause, storageKey: file.storageKey },
        'could not remove the object of a deleted file',
      );
    });
  }

  return { assertUploadAllowed, usage, maxBytesFor, store, describe, remove };
}

export type Uploads = ReturnType<typeof createUploadService>;
