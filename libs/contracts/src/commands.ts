import { z } from 'zod';
import { currencySchema } from './shared.js';

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
  /**
   * The worker asks payments, which keeps destinations encrypted, where to send a payout right
   * before it calls the provider. `send: false` (the payout is already paid or failed, or its
   * destination is gone) means: do not transfer.
   */
  'payouts.instruction': {
    request: z.object({ payoutId: z.uuid() }),
    reply: z.discriminatedUnion('send', [
      z.object({ send: z.literal(false), status: z.string() }),
      z.object({
        send: z.literal(true),
        payoutId: z.uuid(),
        sellerId: z.uuid(),
        amountMinor: z.number().int().positive(),
        currency: currencySchema,
        narration: z.string(),
        /** Set once payments recorded `payout.transfer_submitted`. */
        providerTransferId: z.string().nullable(),
        destination: z.discriminatedUnion('method', [
          z.object({
            method: z.literal('bank'),
            bankCode: z.string(),
            accountNumber: z.string(),
            accountName: z.string(),
          }),
          z.object({ method: z.literal('payoneer'), email: z.string() }),
          z.object({ method: z.literal('wise'), email: z.string(), accountId: z.string() }),
        ]),
      }),
    ]),
  },
} as const;

export type PayoutInstruction = Extract<
  z.infer<(typeof commands)['payouts.instruction']['reply']>,
  { send: true }
>;

export type CommandName = keyof typeof commands;
export type CommandRequest<C extends CommandName> = z.infer<(typeof commands)[C]['request']>;
export type CommandReply<C extends CommandName> = z.infer<(typeof commands)[C]['reply']>;
