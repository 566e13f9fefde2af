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
 * checkout that costs nothing (a 100% code, or pay what you want at zero) by an address that has
 * proven itself is completed at once and `link` is the success page; by any other address,
 * `link` is null and `confirmEmail` says one confirmation e-mail is on its way (issue 30).
 */
export const checkoutStartedSchema = z.object({
  link: z.url().nullable(),
  txRef: z.string(),
  confirmEmail: z.boolean(),
});
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;

/** GET /api/checkout/claims/confirm?token= (the confirmation e-mail's link) and its POST. */
export const confirmClaimSchema = z.object({ token: z.string().max(200) });
/** Where the confirmed claim's receipt is; null when another link of the claim confirmed it. */
export const claimConfirmedSchema = z.object({ receiptUrl: z.url().nullable() });
export type ClaimConfirmed = z.infer<typeof claimConfirmedSchema>;
