import { z } from 'zod';

/** POST /api/downloads (delivery): a signed link to the purchased file. */
export const downloadLinkSchema = z.object({
  /** `/dl/<token>`, relative to the site; answered with Content-Disposition: attachment; valid 1 hour. */
  downloadUrl: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  expiresAt: z.iso.datetime(),
});
export type DownloadLink = z.infer<typeof downloadLinkSchema>;

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
