import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createEvent, type PurchaseFiles } from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import {
  findAccessibleEntitlement,
  findEntitlement,
  type Entitlement,
} from '../db/entitlements.repo.js';
import {
  findGrantToRedeem,
  grantsSince,
  insertGrant,
  type DownloadGrant,
} from '../db/downloads.repo.js';
import { findFile, findPurchaseFiles, type StoredFile } from '../db/files.repo.js';
import { findProduct } from '../db/products.repo.js';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/storage.js';
import { openFileRange, type OpenedFile } from '../storage/file-sender.js';
import { accessErrors, accessKeysOf, authorize, type Claimant } from './access.js';
import { parseRange, type SatisfiableRange } from './byte-range.js';
import { readDownloadToken, signDownloadToken } from './download-token.js';
import { isUsable } from './entitlements.js';
import { archiveFileName } from './file-name.js';
import type { CompletionLog } from './completion-log.js';
import type { StampedCopies } from './stamped-copies.js';
import { archiveSize, streamArchive, uniqueEntryNames } from './zip-archive.js';

/** Spec §9: download links are valid for 1 hour. */
export const LINK_VALIDITY_MS = 60 * 60 * 1000;
const RATE_WINDOW_MS = 60 * 60 * 1000;

export const downloadErrors = {
  linkInvalid: () => new AppError('download_link_invalid', 403, 'This download link is not valid'),
  linkExpired: () =>
    new AppError(
      'download_link_expired',
      403,
      'This download link has expired; download links are valid for 1 hour',
    ),
  fileUnavailable: () =>
    new AppError('file_unavailable', 410, 'The file of this purchase is no longer available'),
  fileNotInPurchase: () =>
    new AppError('file_not_in_purchase', 404, 'This file is not part of your purchase'),
  tooManyLinks: (retryAfterSeconds: number) =>
    new AppError(
      'download_rate_limited',
      429,
      'Too many download links for this purchase; please try again later',
      {
        retryAfterSeconds,
      },
    ),
};

export interface DownloadLink {
  token: string;
  fileName: string;
  sizeBytes: number;
  expiresAt: Date;
}

/** A redeemed link, ready to be answered: what to send, and how to open and account for it. */
export type Redemption =
  | { kind: 'unsatisfiable'; sizeBytes: number }
  | {
      kind: 'content';
      file: Pick<StoredFile, 'fileName' | 'sizeBytes' | 'contentType'>;
      etag: string;
      /** Null for the whole file. */
      range: SatisfiableRange | null;
      contentLength: number;
      /** The response carries the file's last byte: sending it in full completes a download. */
      reachesEnd: boolean;
      /**
       * The stored object's key when it lies on this machine's disk (the filesystem backend),
       * so a web server in front may send it instead (`DOWNLOAD_OFFLOAD=x-accel`); else null.
       */
      localKey: string | null;
      /** A URL the storage answers this file at for `expiresInSeconds`, or null (see ObjectStorage). */
      signedUrl(expiresInSeconds: number, contentDisposition: string): Promise<string | null>;
      open(): Promise<Readable>;
      /**
       * The range, opened to be written by delivery itself, when the file lies on this machine's
       * disk (storage/file-sender.ts); null otherwise (send `open()`'s stream).
       */
      openLocal(): Promise<OpenedFile | null>;
      /** Records the completed download and `download.completed` (with others completed meanwhile). */
      recordCompleted(correlationId: string): Promise<void>;
    }
  | {
      /** Every file of the purchase as one ZIP, made as it is sent; always whole, never offloaded. */
      kind: 'archive';
      fileName: string;
      /** Exact: the Content-Length. */
      sizeBytes: number;
      open(): Readable;
      /** Records a completed download and `download.completed` for each file, together. */
      recordCompleted(correlationId: string): Promise<void>;
    };

export interface DownloadsDependencies {
  pool: Pool;
  storage: ObjectStorage;
  signingKey: string;
  grantsPerHour: number;
  now: () => Date;
  stampedCopies: Pick<StampedCopies, 'copyFor' | 'existingCopyFor'>;
  /** Where completed downloads are written (in groups; see completion-log.ts). */
  completions: Pick<CompletionLog, 'record'>;
}

/** A file a buyer gets: the stored file, or in its place their own stamped copy (same id and name). */
type BuyersCopy = StoredFile;

/**
 * Entitlements turned into downloads: the files of a purchase, one-hour signed links to one of
 * them or to a ZIP of all, rate-limited per purchase, and redemptions that re-check the
 * entitlement every time, so a refund stops links already issued.
 */
export function createDownloadService({
  pool,
  storage,
  signingKey,
  grantsPerHour,
  now,
  stampedCopies,
  completions,
}: DownloadsDependencies) {
  /**
   * What each file is for this buyer: with the product's stamping on, a PDF is their own stamped
   * copy — never the original. `make` stamps copies not made yet; without it they count as the
   * original (what a buyer is shown before downloading must not start a stamp).
   */
  async function buyersCopies(
    entitlement: Entitlement,
    files: StoredFile[],
    { make }: { make: boolean },
  ): Promise<BuyersCopy[]> {
    if (!files.some((file) => file.kind === 'pdf')) return files;
    const product = await findProduct(pool, entitlement.productId);
    const copies: BuyersCopy[] = [];
    // One at a time: a first stamp runs in a process of its own, and a purchase may hold many PDFs.
    for (const file of files) {
      const stamped = make
        ? await stampedCopies.copyFor(product, file, entitlement.buyerEmail)
        : await stampedCopies.existingCopyFor(product, file, entitlement.buyerEmail);
      copies.push(
        stamped
          ? {
              ...file,
              storageKey: stamped.storageKey,
              sizeBytes: stamped.sizeBytes,
              sha256: stamped.sha256,
            }
          : file,
      );
    }
    return copies;
  }

  /** The archive of these copies: entry names unique, each entry read from storage in its turn. */
  function archiveEntries(copies: BuyersCopy[]) {
    const names = uniqueEntryNames(copies.map((copy) => copy.fileName));
    return copies.map((copy, index) => ({
      name: names[index]!,
      sizeBytes: copy.sizeBytes,
      open: () => openObject(copy.storageKey),
    }));
  }

  async function openObject(storageKey: string, range?: SatisfiableRange): Promise<Readable> {
    try {
      return await storage.get(storageKey, range);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw downloadErrors.fileUnavailable();
      throw error;
    }
  }

  /**
   * Authorizes the claimant, spends one link of the purchase's hourly budget (files and ZIPs
   * alike, counted under a row lock so concurrent requests cannot exceed it) and records a grant
   * for what `choose` picks: one file, or every file (`fileId` null, a ZIP).
   */
  async function issueGrant<Chosen extends { fileId: string | null }>(
    claimant: Claimant,
    purchaseId: string,
    choose: (tx: Queryable, entitlement: Entitlement) => Promise<Chosen>,
  ): Promise<{ token: string; expiresAt: Date; entitlement: Entitlement; chosen: Chosen }> {
    return withTransaction(pool, async (tx) => {
      const at = now();
      const entitlement = await authorize(
        tx,
        await findEntitlement(tx, purchaseId, { forUpdate: true }),
        claimant,
        at,
      );
      const recent = await grantsSince(tx, purchaseId, new Date(at.getTime() - RATE_WINDOW_MS));
      if (recent.count >= grantsPerHour) {
        const freesAt = (recent.oldest?.getTime() ?? at.getTime()) + RATE_WINDOW_MS;
        throw downloadErrors.tooManyLinks(Math.max(1, Math.ceil((freesAt - at.getTime()) / 1000)));
      }
      const chosen = await choose(tx, entitlement);
      // Whole seconds: the token carries the expiry in seconds and must agree with the record.
      const expiresAt = new Date(Math.floor((at.getTime() + LINK_VALIDITY_MS) / 1000) * 1000);
      const grantId = randomUUID();
      await insertGrant(tx, {
        id: grantId,
        purchaseId,
        fileId: chosen.fileId,
        expiresAt,
        createdAt: at,
      });
      const token = signDownloadToken(signingKey, {
        grantId,
        purchaseId,
        fileId: chosen.fileId,
        expiresAt,
      });
      return { token, expiresAt, entitlement, chosen };
    });
  }

  /** The file a link is for: `fileId` (one of the purchase's files), else the one bought. */
  async function linkedFile(
    db: Queryable,
    entitlement: Entitlement,
    fileId: string | undefined,
  ): Promise<StoredFile> {
    const file =
      fileId === undefined
        ? entitlement.fileId && (await findFile(db, entitlement.fileId))
        : (await findPurchaseFiles(db, entitlement.purchaseId)).find(
            (listed) => listed.id === fileId,
          );
    if (!file && fileId !== undefined) throw downloadErrors.fileNotInPurchase();
    if (!file) throw downloadErrors.fileUnavailable();
    return file;
  }

  /**
   * A link to one file of the purchase: `fileId` when given (one of the purchase's files, else
   * 404 file_not_in_purchase), else the file bought at checkout or the product's main file. A
   * stamped PDF's copy is made first, before the link is counted, so the size is the copy's and
   * a buyer told `copy_preparing` (the web: 'Preparing your copy…') spends nothing by asking again.
   */
  async function issueLink(
    claimant: Claimant,
    purchaseId: string,
    fileId?: string,
  ): Promise<DownloadLink> {
    const buyer = await authorize(pool, await findEntitlement(pool, purchaseId), claimant, now());
    await buyersCopies(buyer, [await linkedFile(pool, buyer, fileId)], { make: true });
    const { token, expiresAt, entitlement, chosen } = await issueGrant(
      claimant,
      purchaseId,
      async (tx, entitlement) => {
        const file = await linkedFile(tx, entitlement, fileId);
        return { fileId: file.id, file };
      },
    );
    const [copy] = await buyersCopies(entitlement, [chosen.file], { make: true });
    return { token, fileName: copy!.fileName, sizeBytes: copy!.sizeBytes, expiresAt };
  }

  /**
   * A link to every file of the purchase as one ZIP; its size is exact (copies are stamped now,
   * before the link is counted: a buyer told `copy_preparing` spends nothing by asking again).
   */
  async function issueArchiveLink(claimant: Claimant, purchaseId: string): Promise<DownloadLink> {
    const buyer = await authorize(pool, await findEntitlement(pool, purchaseId), claimant, now());
    await buyersCopies(buyer, await findPurchaseFiles(pool, purchaseId), { make: true });
    const { token, expiresAt, entitlement, chosen } = await issueGrant(
      claimant,
      purchaseId,
      async (tx) => {
        const files = await findPurchaseFiles(tx, purchaseId);
        if (files.length === 0) throw downloadErrors.fileUnavailable();
        return { fileId: null, files };
      },
    );
    const copies = await buyersCopies(entitlement, chosen.files, { make: true });
    return {
      token,
      fileName: archiveFileName(entitlement.productTitle),
      sizeBytes: archiveSize(archiveEntries(copies)),
      expiresAt,
    };
  }

  /** What the purchase holds, for the buyer's download screen; it spends no link of the budget. */
  async function filesOf(claimant: Claimant, purchaseId: string): Promise<PurchaseFiles> {
    const entitlement = await authorize(
      pool,
      await findEntitlement(pool, purchaseId),
      claimant,
      now(),
    );
    const copies = await buyersCopies(entitlement, await findPurchaseFiles(pool, purchaseId), {
      make: false,
    });
    return {
      files: copies.map((copy) => ({
        fileId: copy.id,
        fileName: copy.fileName,
        sizeBytes: copy.sizeBytes,
        kind: copy.kind,
      })),
      zip: {
        fileName: archiveFileName(entitlement.productTitle),
        sizeBytes: archiveSize(archiveEntries(copies)),
      },
    };
  }

  /** For the product page: the claimant's usable purchase of the product, if any. */
  async function accessTo(
    claimant: Claimant,
    productId: string,
  ): Promise<{ hasAccess: boolean; purchaseId?: string }> {
    const keys = accessKeysOf(claimant);
    if (!keys.verifiedEmail && !keys.browserKeyHash && !keys.receiptKeyHash)
      return { hasAccess: false };
    const entitlement = await findAccessibleEntitlement(pool, productId, keys, now());
    return entitlement
      ? { hasAccess: true, purchaseId: entitlement.purchaseId }
      : { hasAccess: false };
  }

  /** Each completed file as a `downloads` row and `download.completed`, written with its group. */
  async function recordCompleted(
    grant: DownloadGrant,
    entitlement: Entitlement,
    completed: { fileId: string; firstByte: number; bytesSent: number }[],
    correlationId: string,
  ): Promise<void> {
    const completedAt = now();
    await completions.record(
      completed.map(({ fileId, firstByte, bytesSent }) => ({
        id: randomUUID(),
        grantId: grant.id,
        purchaseId: grant.purchaseId,
        fileId,
        firstByte,
        bytesSent,
        completedAt,
      })),
      completed.map(({ fileId, bytesSent }) =>
        createEvent(
          'download.completed',
          { purchaseId: grant.purchaseId, productId: entitlement.productId, fileId, bytesSent },
          { correlationId },
        ),
      ),
    );
  }

  /**
   * Signature, then expiry, then — on every redemption — the entitlement itself. A file link
   * then answers that file (or a range of it); a ZIP link every file the purchase holds now.
   */
  async function redeem(
    token: string,
    request: { range?: string; ifRange?: string },
  ): Promise<Redemption> {
    const header = readDownloadToken(token);
    if (!header) throw downloadErrors.linkInvalid();
    const found = await findGrantToRedeem(pool, header.grantId);
    if (!found || !header.signedFor(signingKey, found.grant.purchaseId, found.grant.fileId))
      throw downloadErrors.linkInvalid();
    const { grant, entitlement, files } = found;
    // The stored grant has the last word, so an operator can cut a leaked link short.
    if (now() >= header.expiresAt || now() >= grant.expiresAt) throw downloadErrors.linkExpired();
    const at = now();
    if (!isUsable(entitlement, at))
      throw entitlement ? accessErrors.unusable(entitlement, at) : accessErrors.purchaseRefunded();
    return grant.fileId === null
      ? redeemArchive(grant, entitlement, files)
      : redeemFile(grant, grant.fileId, entitlement, files, request);
  }

  /** The ETag is the file's SHA-256, the same under every link, so `If-Range` lets a fresh link resume. */
  async function redeemFile(
    grant: DownloadGrant,
    fileId: string,
    entitlement: Entitlement,
    purchaseFiles: StoredFile[],
    request: { range?: string; ifRange?: string },
  ): Promise<Redemption> {
    // The purchase's files now, not when the link was given: a file the seller has since
    // removed from the product is gone for this buyer (unless it is the one they bought).
    const original = purchaseFiles.find((listed) => listed.id === fileId);
    if (!original)
      throw (await findFile(pool, fileId))
        ? downloadErrors.fileNotInPurchase()
        : downloadErrors.fileUnavailable();
    const [file] = await buyersCopies(entitlement, [original], { make: true });
    if (!file) throw downloadErrors.fileUnavailable();

    const etag = `"${file.sha256}"`;
    const wanted =
      request.ifRange && request.ifRange !== etag
        ? { kind: 'full' as const }
        : parseRange(request.range, file.sizeBytes);
    if (wanted.kind === 'unsatisfiable')
      return { kind: 'unsatisfiable', sizeBytes: file.sizeBytes };
    const range = wanted.kind === 'partial' ? wanted.range : null;
    const first = range?.start ?? 0;
    const last = range?.end ?? file.sizeBytes - 1;

    return {
      kind: 'content',
      file,
      etag,
      range,
      contentLength: last - first + 1,
      reachesEnd: last === file.sizeBytes - 1,
      localKey: storage.localPath(file.storageKey) === null ? null : file.storageKey,
      signedUrl: (expiresInSeconds, contentDisposition) =>
        storage.signedUrl(file.storageKey, {
          expiresInSeconds,
          contentType: file.contentType,
          contentDisposition,
        }),
      open: () => openObject(file.storageKey, range ?? undefined),
      openLocal: async () => {
        const path = storage.localPath(file.storageKey);
        if (path === null) return null;
        try {
          return await openFileRange(path, { start: first, end: last });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT')
            throw downloadErrors.fileUnavailable();
          throw error;
        }
      },
      recordCompleted: (correlationId) =>
        recordCompleted(
          grant,
          entitlement,
          [{ fileId: file.id, firstByte: first, bytesSent: last - first + 1 }],
          correlationId,
        ),
    };
  }

  /** The purchase's files as they are now (a file added since the link was given is in it). */
  async function redeemArchive(
    grant: DownloadGrant,
    entitlement: Entitlement,
    files: StoredFile[],
  ): Promise<Redemption> {
    if (files.length === 0) throw downloadErrors.fileUnavailable();
    const copies = await buyersCopies(entitlement, files, { make: true });
    const entries = archiveEntries(copies);
    return {
      kind: 'archive',
      fileName: archiveFileName(entitlement.productTitle),
      sizeBytes: archiveSize(entries),
      open: () => streamArchive(entries).body,
      recordCompleted: (correlationId) =>
        recordCompleted(
          grant,
          entitlement,
          copies.map((copy) => ({ fileId: copy.id, firstByte: 0, bytesSent: copy.sizeBytes })),
          correlationId,
        ),
    };
  }

  return { issueLink, issueArchiveLink, filesOf, accessTo, redeem };
}

export type Downloads = ReturnType<typeof createDownloadService>;
