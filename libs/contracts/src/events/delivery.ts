import { z } from 'zod';
import { fileKindSchema } from '../shared.js';

export const deliveryEvents = {
  'file.uploaded': {
    version: 1,
    schema: z.object({
      fileId: z.uuid(),
      ownerId: z.uuid(),
      fileName: z.string(),
      sizeBytes: z.number().int().nonnegative(),
      contentType: z.string(),
      sha256: z.string().regex(/^[a-f0-9]{64}$/),
    }),
  },
  'file.processed': {
    version: 1,
    schema: z.object({
      fileId: z.uuid(),
      ownerId: z.uuid(),
      kind: fileKindSchema,
      previewAvailable: z.boolean(),
      blurPercentage: z.number().int().min(0).max(100),
    }),
  },
  'download.completed': {
    version: 1,
    schema: z.object({
      purchaseId: z.uuid(),
      productId: z.uuid(),
      fileId: z.uuid(),
      bytesSent: z.number().int().nonnegative(),
    }),
  },
} as const;
