import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { findAccessibleEntitlement, findEntitlement } from '../db/entitlements.repo.js';
import { findGrant, grantsSince, insertDownload, insertGrant } from '../db/downloads.repo.js';
import { findFile, type StoredFile } from '../db/files.repo.js';
import { findProduct } from '../db/products.repo.js';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/storage.js';
import { accessErrors, accessKeysOf, authorize, type Claimant } from './access.js';
import { parseRange, type SatisfiableRange } from './byte-range.js';
import { readDownloadToken, signDownloadToken } from './download-token.js';
import { isUsable } from './entitlements.js';
import type { StampedCopies } from './stamped-copies.js';

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
      /** Records the completed download and `download.completed` in one transaction. */
      recordCompleted(correlationId: string): Promise<void>;
    };

export interface DownloadsDependencies {
  pool: Pool;
  storage: ObjectStorage;
  signingKey: string;
  grantsPerHour: number;
  now: () => Date;
  stampedCopies: Pick<StampedCopies, 'copyFor'>;
}

/**
 * Entitlements turned into downloads: one-hour signed links, rate-limited per purchase, and
 * redemptions that re-check the entitlement every time, so a refund stops links already issued.
 */
export function createDownloadService({
  pool,
  storage,
  signingKey,
  grantsPerHour,
  now,
  stampedCopies,
}: DownloadsDependencies) {
  /** Locks the entitlement so concurrent requests cannot exceed the hourly link budget. */
  async function issueLink(claimant: Claimant, purchaseId: string): Promise<DownloadLink> {
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
      const file = entitlement.fileId ? await findFile(tx, entitlement.fileId) : null;
      if (!file) throw downloadErrors.fileUnavailable();
      // Whole seconds: the token carries the expiry in seconds and must agree with the record.
      const expiresAt = new Date(Math.floor((at.getTime() + LINK_VALIDITY_MS) / 1000) * 1000);
      const grant = { id: randomUUID(), purchaseId, fileId: file.id, expiresAt };
      await insertGrant(tx, { ...grant, createdAt: at });
      return {
        token: signDownloadToken(signingKey, {
          grantId: grant.id,
          purchaseId,
          fileId: file.id,
          expiresAt,
        }),
        fileName: file.fileName,
        sizeBytes: file.sizeBytes,
        expiresAt,
      };
    });
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

  /**
   * Signature, then expiry, then — on every redemption — the entitlement itself. The ETag is
   * the file's SHA-256, the same under every link, so `If-Range` lets a fresh link resume.
   */
  async function redeem(
    token: string,
    request: { range?: string; ifRange?: string },
  ): Promise<Redemption> {
    const header = readDownloadToken(token);
    if (!header) throw downloadErrors.linkInvalid();
    const grant = await findGrant(pool, header.grantId);
    if (!grant || !header.signedFor(signingKey, grant.purchaseId, grant.fileId))
      throw downloadErrors.linkInvalid();
    // The stored grant has the last word, so an operator can cut a leaked link short.
    if (now() >= header.expiresAt || now() >= grant.expiresAt) throw downloadErrors.linkExpired();
    const entitlement = await findEntitlement(pool, grant.purchaseId);
    const at = now();
    if (!isUsable(entitlement, at))
      throw entitlement ? accessErrors.unusable(entitlement, at) : accessErrors.purchaseRefunded();
    const original = await findFile(pool, grant.fileId);
    if (!original) throw downloadErrors.fileUnavailable();
    // With the product's stamping on, this buyer's PDF is their own stamped copy: never the original.
    const stamped =
      original.kind === 'pdf'
        ? await stampedCopies.copyFor(
            await findProduct(pool, entitlement.productId),
            original,
            entitlement.buyerEmail,
          )
        : null;
    const file = stamped
      ? {
          ...original,
          storageKey: stamped.storageKey,
          sizeBytes: stamped.sizeBytes,
          sha256: stamped.sha256,
        }
      : original;

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
      async open() {
        try {
          return await storage.get(file.storageKey, range ?? undefined);
        } catch (error) {
          if (error instanceof ObjectNotFoundError) throw downloadErrors.fileUnavailable();
          throw error;
        }
      },
      async recordCompleted(correlationId) {
        const bytesSent = last - first + 1;
        const download = {
          id: randomUUID(),
          grantId: grant.id,
          purchaseId: grant.purchaseId,
          fileId: file.id,
          firstByte: first,
          bytesSent,
          completedAt: now(),
        };
        await withTransaction(pool, async (tx) => {
          await insertDownload(tx, download);
          await enqueueEvent(
            tx,
            createEvent(
              'download.completed',
              {
                purchaseId: grant.purchaseId,
                productId: entitlement.productId,
                fileId: file.id,
                bytesSent,
              },
              { correlationId },
            ),
          );
        });
      },
    };
  }

  return { issueLink, accessTo, redeem };
}

export type Downloads = ReturnType<typeof createDownloadService>;
