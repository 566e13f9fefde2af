import { z } from 'zod';

/**
 * Requests one service answers for another while a person waits — the few places where an
 * event's eventual effect is not enough (ARCHITECTURE §2: synchronous only where the answer must
 * be fresh). They travel over NATS request/reply; the answering service is the one that owns the
 * data, and a replica of it answers each request once.
 */
export const commands = {
  /**
   * Delivery stops every download of a purchase before payments asks the provider to refund
   * it, so no byte is served once the refund call returns. `refundId` ties the suspension to
   * one attempt: `purchase.refund_failed` for that attempt lifts it, a stale one cannot.
   */
  'access.suspend_for_refund': {
    request: z.object({
      purchaseId: z.uuid(),
      productId: z.uuid(),
      sellerId: z.uuid(),
      buyerEmail: z.email(),
      refundId: z.uuid(),
    }),
    reply: z.object({ suspended: z.literal(true) }),
  },
} as const;

export type CommandName = keyof typeof commands;
export type CommandRequest<C extends CommandName> = z.infer<(typeof commands)[C]['request']>;
export type CommandReply<C extends CommandName> = z.infer<(typeof commands)[C]['reply']>;
