import { z } from 'zod';
import { fileKindSchema } from '../shared.js';

/** GET /api/uploads/usage (delivery): this calendar month's uploads against the plan's allowance. */
export const uploadUsageSchema = z.object({
  plan: z.string(),
  used: z.number().int().nonnegative(),
  /** null: the plan has no monthly limit. */
  limit: z.number().int().positive().nullable(),
  resetsAt: z.string(),
});
export type UploadUsage = z.infer<typeof uploadUsageSchema>;

/** pending: being rendered; ready: served; failed: could not be rendered; disabled: the seller turned previews off. */
export const previewStatusSchema = z.enum(['pending', 'ready', 'failed', 'disabled']);
export type PreviewStatus = z.infer<typeof previewStatusSchema>;

/** POST /api/uploads (delivery): the stored file. */
export const uploadedFileSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** Sniffed from the bytes; `application/octet-stream` when not recognised. */
  contentType: z.string(),
  sha256: z.string(),
  kind: fileKindSchema,
  createdAt: z.iso.datetime(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** GET /api/previews/:productId/status (delivery). */
export const previewStateSchema = z.object({
  status: previewStatusSchema,
  /** The file's kind; null while delivery does not know the file. */
  kind: fileKindSchema.nullable(),
  blurPercentage: z.number().int().min(0).max(100),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type PreviewState = z.infer<typeof previewStateSchema>;

/**
 * GET /api/uploads/:fileId/pdf-stamping (delivery, the file's owner): whether buyers of a
 * product with `stampPdfs` get this file stamped with their e-mail. Anything but `available`
 * means they get the original, and `message` says why.
 */
export const pdfStampingSchema = z.object({
  status: z.enum(['available', 'not_pdf', 'encrypted', 'malformed', 'too_large']),
  message: z.string().nullable(),
});
export type PdfStamping = z.infer<typeof pdfStampingSchema>;
