import { newBrowserKey, sha256Hex } from '@lockdrop/auth';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { findEntitlementByReceiptTokenHash } from '../db/entitlements.repo.js';
import { findFile } from '../db/files.repo.js';
import { openReceiptSession } from '../db/receipt-sessions.repo.js';
import { isUsable } from './entitlements.js';

/** How long a browser that opened the receipt e-mail's link may keep downloading that purchase. */
export const RECEIPT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export interface ReceiptPurchase {
  id: string;
  productId: string;
  productTitle: string | null;
  fileName: string | null;
  sizeBytes: number | null;
}

export function receiptNotFound(): AppError {
  return new AppError(
    'receipt_not_found',
    404,
    'This receipt link is not valid, or the purchase was refunded',
  );
}

/**
 * The receipt e-mail's link (`/receipt/<token>`) works without an account: presenting its secret
 * opens a session in this browser for that purchase only. The browser gets a new random key each
 * time (only its hash is stored), keeping the purchases its previous key opened.
 */
export function createReceiptSessionService({ pool, now }: { pool: Pool; now: () => Date }) {
  async function open(
    receiptToken: string,
    previousKeyHash: string | null,
  ): Promise<{ key: string; purchase: ReceiptPurchase }> {
    const entitlement = await findEntitlementByReceiptTokenHash(pool, sha256Hex(receiptToken));
    if (!isUsable(entitlement, now())) throw receiptNotFound();
    const { key, hash: keyHash } = newBrowserKey();
    const at = now();
    await withTransaction(pool, (tx) =>
      openReceiptSession(tx, {
        keyHash,
        previousKeyHash,
        purchaseId: entitlement.purchaseId,
        now: at,
        expiresAt: new Date(at.getTime() + RECEIPT_SESSION_MS),
      }),
    );
    const file = entitlement.fileId ? await findFile(pool, entitlement.fileId) : null;
    return {
      key,
      purchase: {
        id: entitlement.purchaseId,
        productId: entitlement.productId,
        productTitle: entitlement.productTitle,
        fileName: file?.fileName ?? entitlement.fileName,
        sizeBytes: file?.sizeBytes ?? null,
      },
    };
  }

  return { open };
}

export type ReceiptSessions = ReturnType<typeof createReceiptSessionService>;
