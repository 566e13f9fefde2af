import { z } from 'zod';

/**
 * What a code takes off: a percentage of the price, or a fixed amount in one currency (it then
 * applies only to products priced in that currency).
 */
export const discountKindSchema = z.enum(['percent', 'fixed']);
export type DiscountKind = z.infer<typeof discountKindSchema>;

/** Letters, digits, `-` and `_`; matched without regard to case ("launch20" finds LAUNCH20). */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

const optionalDateTime = z.iso.datetime({ offset: true }).nullable().default(null);
const optionalLimit = z.number().int().min(1).max(1_000_000).nullable().default(null);

/**
 * POST /api/discount-codes and PUT /api/discount-codes/:id (payments, the signed-in seller):
 * the whole code. Payments checks the rest (a percentage for `percent`, an amount and currency
 * for `fixed`, the seller's own products, an end after the start) and says which in words.
 */
export const discountCodeInputSchema = z.object({
  code: z.string().max(64),
  kind: discountKindSchema,
  /** kind percent: 1–100. */
  percentOff: z.number().int().nullable().default(null),
  /** kind fixed: the amount in major units ("5", "2.50"), in `currency`. */
  amountOff: z
    .union([z.string().max(32), z.number()])
    .nullable()
    .default(null),
  currency: z.string().max(8).nullable().default(null),
  /** The products it applies to; null for every product of the seller, now and later. */
  productIds: z.array(z.string().max(64)).max(200).nullable().default(null),
  startsAt: optionalDateTime,
  endsAt: optionalDateTime,
  /** Paid uses in total (checkouts in progress hold a use until their payment page expires). */
  maxUses: optionalLimit,
  maxUsesPerBuyer: optionalLimit,
  active: z.boolean().default(true),
});
export type DiscountCodeInput = z.infer<typeof discountCodeInputSchema>;
export type DiscountCodeRequest = z.input<typeof discountCodeInputSchema>;

/** Where a code stands right now, for the seller's list. */
export const discountStateSchema = z.enum([
  'active',
  'scheduled',
  'expired',
  'exhausted',
  'inactive',
]);
export type DiscountState = z.infer<typeof discountStateSchema>;

const revenueSchema = z.object({
  currency: z.string(),
  amountMinor: z.number().int(),
  formatted: z.string(),
});

export const discountCodeSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: discountKindSchema,
  percentOff: z.number().int().nullable(),
  amountOffMinor: z.number().int().nullable(),
  /** Exact decimal of `amountOffMinor`, for the edit form. */
  amountOff: z.string().nullable(),
  currency: z.string().nullable(),
  /** "20% off", "₦500.00 off". */
  label: z.string(),
  productIds: z.array(z.uuid()).nullable(),
  startsAt: z.iso.datetime({ offset: true }).nullable(),
  endsAt: z.iso.datetime({ offset: true }).nullable(),
  maxUses: z.number().int().nullable(),
  maxUsesPerBuyer: z.number().int().nullable(),
  active: z.boolean(),
  state: discountStateSchema,
  /** Paid purchases made with the code (refunded ones included: the use was spent). */
  uses: z.number().int(),
  /** Checkouts holding a use while their payment page is open. */
  reserved: z.number().int(),
  /** What the code's purchases brought, per currency, refunds taken out. */
  revenue: z.array(revenueSchema),
  createdAt: z.iso.datetime({ offset: true }),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;

/** GET /api/discount-codes. */
export const discountCodeListSchema = z.object({ discountCodes: z.array(discountCodeSchema) });
export type DiscountCodeList = z.infer<typeof discountCodeListSchema>;

/**
 * POST /api/checkout/quote (payments, anyone): what checkout will charge for this product in
 * this currency, with this code or this pay-what-you-want amount. The product page shows it and
 * checkout snapshots exactly the same figure. A code that cannot be used is a 400 whose
 * `error.code` says why (`discount_unknown`, `discount_inactive`, `discount_not_started`,
 * `discount_expired`, `discount_exhausted`, `discount_not_applicable`,
 * `discount_used_by_buyer`) and whose message says it in words.
 */
export const checkoutQuoteRequestSchema = z.object({
  productId: z.string().max(100),
  currency: z.string().max(8).optional(),
  discountCode: z.string().max(64).optional(),
  /** Pay what you want: the buyer's amount in major units of `currency`. */
  amount: z.union([z.string().max(32), z.number()]).optional(),
});
export type CheckoutQuoteRequest = z.input<typeof checkoutQuoteRequestSchema>;

const moneyShown = z.object({
  amountMinor: z.number().int(),
  /** Exact decimal in major units. */
  amount: z.string(),
  formatted: z.string(),
});

export const checkoutQuoteSchema = z.object({
  currency: z.string(),
  /** The product's price (the suggested one for pay what you want) in `currency`. */
  listPrice: moneyShown,
  discount: z.object({ code: z.string(), label: z.string(), amountOff: moneyShown }).nullable(),
  /** Pay what you want: the least the buyer may pay, in `currency` (may be zero). */
  minimum: moneyShown.nullable(),
  /** What the buyer pays; zero means the file is given away without a payment page. */
  total: moneyShown,
});
export type CheckoutQuote = z.infer<typeof checkoutQuoteSchema>;
