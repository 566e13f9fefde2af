import { z } from 'zod';
import { currencySchema } from '../shared.js';

/**
 * The seller's payout API (payments' `/api/payouts*`), shared by payments and the web so the
 * form, the server and the screens validate with one schema each.
 */

/** Spec §3: bank, Payoneer and Wise; PayPal and Stripe are shown as coming soon and cannot be chosen. */
export const payoutMethodSchema = z.enum(['bank', 'payoneer', 'wise']);
export type PayoutMethod = z.infer<typeof payoutMethodSchema>;

const payoutEmail = z
  .string({ error: 'Please enter a valid e-mail address' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Please enter a valid e-mail address').max(254));

/** A Nigerian bank account (NUBAN: 10 digits) at a bank from `GET /api/payouts/banks`. */
export const bankAccountSchema = z.object({
  bankCode: z
    .string({ error: 'Please choose your bank' })
    .trim()
    .regex(/^\d{3,6}$/, 'Please choose your bank'),
  accountNumber: z
    .string({ error: 'Account number must be 10 digits' })
    .trim()
    .regex(/^\d{10}$/, 'Account number must be 10 digits'),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const payoutDestinationInputSchema = z.discriminatedUnion('method', [
  bankAccountSchema.extend({
    method: z.literal('bank'),
    /** The name the provider resolved for this account, which the seller confirmed on screen. */
    accountName: z.string().trim().min(1).max(200),
  }),
  z.object({ method: z.literal('payoneer'), email: payoutEmail }),
  z.object({
    method: z.literal('wise'),
    email: payoutEmail,
    accountId: z
      .string({ error: 'Wise account ID is the number shown in your Wise account' })
      .trim()
      .regex(/^\d{1,15}$/, 'Wise account ID is the number shown in your Wise account'),
  }),
]);
export type PayoutDestinationInput = z.infer<typeof payoutDestinationInputSchema>;

/** A saved destination as the seller sees it: secrets masked (`•••• 6789`), never returned whole. */
export const payoutDestinationSchema = z.object({
  method: payoutMethodSchema,
  /** One line for lists and e-mails, e.g. "Access Bank •••• 6789" or "Payoneer j•••@example.com". */
  label: z.string(),
  bankCode: z.string().nullable(),
  bankName: z.string().nullable(),
  accountName: z.string().nullable(),
  accountNumberMasked: z.string().nullable(),
  emailMasked: z.string().nullable(),
  accountIdMasked: z.string().nullable(),
  /** Currencies this destination receives; balances in others are converted at payout time. */
  currencies: z.array(currencySchema),
  updatedAt: z.iso.datetime(),
  /** Set for 24 h after a change (account-takeover defence): no payout is sent before then. */
  payoutsHeldUntil: z.iso.datetime().nullable(),
});
export type PayoutDestination = z.infer<typeof payoutDestinationSchema>;

export const bankSchema = z.object({ code: z.string(), name: z.string() });
export type Bank = z.infer<typeof bankSchema>;

export const payoutStatusSchema = z.enum(['created', 'submitted', 'paid', 'failed']);
export type PayoutStatus = z.infer<typeof payoutStatusSchema>;

/** One currency's balance, all from the ledger (minor units). May be negative after refunds. */
export const payoutBalanceSchema = z.object({
  currency: currencySchema,
  pendingMinor: z.number().int(),
  availableMinor: z.number().int(),
  inTransitMinor: z.number().int(),
  paidOutMinor: z.number().int(),
  /** The smallest payout sent in this currency. */
  minimumPayoutMinor: z.number().int().nonnegative(),
});
export type PayoutBalance = z.infer<typeof payoutBalanceSchema>;

export const payoutBalancesSchema = z.object({
  balances: z.array(payoutBalanceSchema),
  /** When the next scheduled payout run starts. */
  nextPayoutAt: z.iso.datetime().nullable(),
  /** When "Withdraw now" may next be used; null when it may be used now. */
  withdrawAvailableAt: z.iso.datetime().nullable(),
  /**
   * Pending money by the date it becomes available (the refund window, the hold, and a new
   * seller's extra hold), so the payouts screen can say when each amount can be paid out.
   */
  releases: z.array(
    z.object({
      currency: currencySchema,
      amountMinor: z.number().int(),
      availableAt: z.iso.datetime(),
    }),
  ),
});
export type PayoutBalances = z.infer<typeof payoutBalancesSchema>;

export const payoutSchema = z.object({
  id: z.uuid(),
  status: payoutStatusSchema,
  /** What the destination receives. */
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  /** The balance it came from; differs from `currency` when it was converted at payout time. */
  sourceAmountMinor: z.number().int().positive(),
  sourceCurrency: currencySchema,
  /** 1 `sourceCurrency` buys `fxRate` `currency`; null when nothing was converted. */
  fxRate: z.string().nullable(),
  trigger: z.enum(['scheduled', 'withdraw']),
  destinationLabel: z.string(),
  failureReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;

/**
 * A payout on the seller's payouts screen, and whether it paid out test money (issue 29: test
 * payments are marked everywhere; their payouts go to the sandbox, never to a bank).
 */
export const sellerPayoutSchema = payoutSchema.extend({ testMode: z.boolean() });
export type SellerPayout = z.infer<typeof sellerPayoutSchema>;

/**
 * When payout runs start unless PAYOUT_CRON/PAYOUT_TZ say otherwise: business days at 09:00 in
 * Lagos (terms: payouts arrive in 1–3 business days). The worker schedules it; payments tells
 * sellers when the next run is.
 */
export const DEFAULT_PAYOUT_SCHEDULE = { pattern: '0 9 * * 1-5', tz: 'Africa/Lagos' } as const;

/** The answers of `/api/payouts*` (the web reads the same shapes). */
export const bankListSchema = z.object({ banks: z.array(bankSchema) });
export const payoutDestinationAnswerSchema = z.object({
  destination: payoutDestinationSchema.nullable(),
});
export const savedPayoutDestinationSchema = z.object({ destination: payoutDestinationSchema });
export const payoutListSchema = z.object({ payouts: z.array(sellerPayoutSchema) });
