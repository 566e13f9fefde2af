import { z } from 'zod';

/** Every event on the bus travels in this envelope; `data` is validated per event type. */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  data: z.unknown(),
});
export type Envelope = z.infer<typeof envelopeSchema>;
