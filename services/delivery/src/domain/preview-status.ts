import { z } from 'zod';

/** pending: being rendered; ready: served; failed: could not be rendered; disabled: the seller turned previews off. */
export const previewStatusSchema = z.enum(['pending', 'ready', 'failed', 'disabled']);
export type PreviewStatus = z.infer<typeof previewStatusSchema>;
