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
   * destination is gone) means: do not transfer. `send: true` carries the instruction sealed
   * (`sealPayoutInstruction`) with a key only payments and the worker hold, bound to the payout:
   * the bus never sees a bank account, and a reply for one payout does not open as another's.
   */
  'payouts.instruction': {
    request: z.object({ payoutId: z.uuid() }),
    reply: z.discriminatedUnion('send', [
      z.object({ send: z.literal(false), status: z.string() }),
      z.object({ send: z.literal(true), payoutId: z.uuid(), sealed: z.string().min(1) }),
    ]),
  },
} as const;

/** What the worker needs to send a payout: the sealed part of a `payouts.instruction` reply. */
export const payoutInstructionSchema = z.object({
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
});
export type PayoutInstruction = z.infer<typeof payoutInstructionSchema>;
export type SealedPayoutInstruction = Extract<
  z.infer<(typeof commands)['payouts.instruction']['reply']>,
  { send: true }
>;

/**
 * Development only (published here, so production refuses it in payments and the worker): the
 * key PAYOUT_INSTRUCTION_KEYS falls back to, the same in both, so `npm start` pays out.
 */
export const DEV_PAYOUT_INSTRUCTION_KEYS = 'dev:bG9ja2Ryb3AtZGV2LXBheW91dC1pbnN0cnVjdGlvbiE=';

/** The authenticated context an instruction is sealed under: its payout, nothing else. */
export const payoutInstructionContext = (payoutId: string) => `payouts.instruction:${payoutId}`;

/** A libs/auth SecretBox, as far as instructions need one (contracts depend on no library). */
interface InstructionBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** Payments' side: the whole instruction, sealed for the worker under the payout's id. */
export function sealPayoutInstruction(
  box: Pick<InstructionBox, 'seal'>,
  instruction: PayoutInstruction,
): SealedPayoutInstruction {
  const checked = payoutInstructionSchema.parse(instruction);
  return {
    send: true,
    payoutId: checked.payoutId,
    sealed: box.seal(JSON.stringify(checked), payoutInstructionContext(checked.payoutId)),
  };
}

/**
 * The worker's side: opens a reply as the instruction for `payoutId`, the payout it asked about
 * — not whichever the reply names. A reply sealed for another payout, altered, or sealed with
 * another key throws, and nothing is sent.
 */
export function openPayoutInstruction(
  box: Pick<InstructionBox, 'open'>,
  payoutId: string,
  reply: SealedPayoutInstruction,
): PayoutInstruction {
  let instruction: PayoutInstruction;
  try {
    instruction = payoutInstructionSchema.parse(
      JSON.parse(box.open(reply.sealed, payoutInstructionContext(payoutId))),
    );
  } catch (error) {
    throw new Error(
      `payout instruction for ${payoutId} does not open: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (instruction.payoutId !== payoutId)
    throw new Error(`payout instruction for ${payoutId} names payout ${instruction.payoutId}`);
  return instruction;
}

export type CommandName = keyof typeof commands;
export type CommandRequest<C extends CommandName> = z.infer<(typeof commands)[C]['request']>;
export type CommandReply<C extends CommandName> = z.infer<(typeof commands)[C]['reply']>;
