import { z } from 'zod';
import { currencySchema, fileKindSchema } from './shared.js';

/** Why catalog will not take a file for a product: the key's seller has no such live product, or it is full. */
const attachRefusalSchema = z.object({
  ok: z.literal(false),
  reason: z.enum(['product_not_found', 'too_many_files']),
});

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
   * Before delivery reads a byte of an API upload naming a product (POST /api/v1/files with
   * `productId`), it asks catalog whether that product is the seller's (the API key's, verified
   * by delivery) and has room for one more file. Another seller's product, a deleted one and an
   * unknown id are the same `product_not_found`: nothing about them is revealed.
   */
  'products.file_attachable': {
    request: z.object({ productId: z.string().max(64), sellerId: z.uuid() }),
    reply: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), attachRefusalSchema]),
  },
  /**
   * Once the upload is stored, delivery has catalog append it to the product's files under the
   * product's row lock (two uploads at once both end up listed). Idempotent: a file the product
   * already lists is answered `ok` and changes nothing, so delivery may ask again after a
   * timeout whose outcome it cannot know. Over the bus rather than HTTP with the key's token:
   * that token lives minutes, an upload of a large file on a slow line longer.
   */
  'products.attach_file': {
    request: z.object({
      productId: z.string().max(64),
      sellerId: z.uuid(),
      file: z.object({
        fileId: z.uuid(),
        fileName: z.string().min(1),
        sizeBytes: z.number().int().nonnegative(),
        kind: fileKindSchema,
      }),
      correlationId: z.string().min(1).max(200),
    }),
    reply: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), attachRefusalSchema]),
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
