import { z } from 'zod';
import { productFileSchema } from './products.js';

/**
 * POST /api/downloads (delivery): `fileId` picks one of the purchase's files; without it, the
 * product's main file (the one bought, or the preview source).
 */
export const downloadLinkRequestSchema = z.object({
  purchaseId: z.uuid(),
  fileId: z.uuid().optional(),
});
export type DownloadLinkRequest = z.infer<typeof downloadLinkRequestSchema>;

/** POST /api/downloads (delivery): a signed link to the purchased file. */
export const downloadLinkSchema = z.object({
  /** `/dl/<token>`, relative to the site; answered with Content-Disposition: attachment; valid 1 hour. */
  downloadUrl: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  expiresAt: z.iso.datetime(),
});
export type DownloadLink = z.infer<typeof downloadLinkSchema>;

/**
 * GET /api/downloads/files?purchaseId= (delivery): every file the purchase may download, in
 * the seller's order (the product's current files, then the file bought if it has been
 * replaced since), and the size of all of them as one ZIP.
 */
export const purchaseFilesSchema = z.object({
  files: z.array(productFileSchema),
  /** The ZIP of `POST /api/downloads/zip`: exact size in bytes (stored, not compressed). */
  zip: z.object({ fileName: z.string(), sizeBytes: z.number().int().nonnegative() }),
});
export type PurchaseFiles = z.infer<typeof purchaseFilesSchema>;

/** POST /api/downloads/zip (delivery): a one-hour link to every file of the purchase as one ZIP. */
export const zipLinkRequestSchema = z.object({ purchaseId: z.uuid() });

/** GET /api/downloads/access: whether this visitor (buyer, checkout browser, receipt) may download. */
export const downloadAccessSchema = z.object({
  hasAccess: z.boolean(),
  purchaseId: z.uuid().optional(),
});
export type DownloadAccess = z.infer<typeof downloadAccessSchema>;

/** POST /api/downloads/receipt-session: the purchase a receipt link opens. */
export const receiptPurchaseSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  productTitle: z.string().nullable(),
  fileName: z.string().nullable(),
  sizeBytes: z.number().int().nonnegative().nullable(),
});
export type ReceiptPurchase = z.infer<typeof receiptPurchaseSchema>;
export const receiptSessionSchema = z.object({ purchase: receiptPurchaseSchema });
export type ReceiptSession = z.infer<typeof receiptSessionSchema>;
