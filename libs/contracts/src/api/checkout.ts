import { z } from 'zod';

/** POST /api/checkout (payments). */
export const startCheckoutSchema = z.object({
  productId: z.string().max(100),
  // Checked by payments' domain, so a missing or malformed e-mail gets the spec's message.
  buyerEmail: z.unknown().optional(),
  /** The currency the buyer is looking at; payments converts and records the rate. */
  currency: z.string().max(8).optional(),
  /** A seller's discount code (any case); see POST /api/checkout/quote for its refusals. */
  discountCode: z.string().max(64).optional(),
  /** Pay what you want: the amount the buyer typed, in major units of `currency`. */
  amount: z.union([z.string().max(32), z.number()]).optional(),
});
/** What the web sends. */
export type StartCheckoutRequest = Omit<z.input<typeof startCheckoutSchema>, 'buyerEmail'> & {
  buyerEmail: string;
};

/**
 * The hosted payment page to send the buyer to, and the reference the return page looks up. A
 * checkout that costs nothing (a 100% code, or pay what you want at zero) is completed at once
 * and `link` is the success page.
 */
export const checkoutStartedSchema = z.object({ link: z.url(), txRef: z.string() });
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;
