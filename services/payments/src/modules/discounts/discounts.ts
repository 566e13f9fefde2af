import { recordAction, type AuditedBy } from '../audit/index.js';
import { randomUUID } from 'node:crypto';
import {
  DISCOUNT_CODE_PATTERN,
  type DiscountCode,
  type DiscountCodeInput,
  type DiscountState,
} from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { type AppError, errors } from '@lockdrop/http';
import {
  AmbiguousAmountError,
  formatMoney,
  minorToDecimalString,
  normalizeCurrency,
  toMinor,
} from '@lockdrop/money';
import {
  buyerDiscountUses,
  deleteDiscountCode,
  discountRevenue,
  discountUsage,
  findDiscountCodeByCode,
  findOwnDiscountCode,
  insertDiscountCode,
  listDiscountCodes,
  saveDiscountCode,
  type DiscountCodeRow,
  type DiscountUsage,
} from './discounts.repository.js';
import type { ProductView } from '../read-models/index.js';

const MAX_AMOUNT_MINOR = 1_000_000_000_000;

const invalid = (message: string) => errors.badRequest('invalid_discount', message);
const notFound = () => errors.notFound('discount_not_found', 'Discount code not found');

const dateShown = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** "20% off", "₦500.00 off". */
export function discountLabel(
  code: Pick<DiscountCodeRow, 'kind' | 'percentOff' | 'amountOffMinor' | 'currency'>,
): string {
  return code.kind === 'percent'
    ? `${code.percentOff}% off`
    : `${formatMoney(code.amountOffMinor!, code.currency!)} off`;
}

/**
 * What the code takes off `priceMinor` (in the product's currency): a percentage rounded half
 * up, or the fixed amount, never more than the price.
 */
export function amountOffMinor(code: DiscountCodeRow, priceMinor: number): number {
  const off =
    code.kind === 'percent'
      ? Math.floor((priceMinor * code.percentOff! + 50) / 100)
      : code.amountOffMinor!;
  return Math.min(priceMinor, off);
}

function stateOf(code: DiscountCodeRow, usage: DiscountUsage, now: Date): DiscountState {
  if (!code.active) return 'inactive';
  if (code.startsAt && code.startsAt > now) return 'scheduled';
  if (code.endsAt && code.endsAt <= now) return 'expired';
  if (code.maxUses !== null && usage.uses + usage.reserved >= code.maxUses) return 'exhausted';
  return 'active';
}

/**
 * Why a buyer may not use `code` on `product` now, in words, or null when they may. `usage` and
 * `buyerUses` come from a count taken under the code's row lock when checkout asks.
 */
function refusalOf(
  code: DiscountCodeRow,
  product: Pick<ProductView, 'id' | 'currency' | 'pricingType' | 'minimumPriceMinor'>,
  usage: DiscountUsage,
  buyerUses: number | null,
  now: Date,
): AppError | null {
  if (!code.active)
    return errors.badRequest('discount_inactive', 'This discount code is no longer active');
  if (code.startsAt && code.startsAt > now)
    return errors.badRequest(
      'discount_not_started',
      `This discount code can be used from ${dateShown.format(code.startsAt)}`,
    );
  if (code.endsAt && code.endsAt <= now)
    return errors.badRequest(
      'discount_expired',
      `This discount code expired on ${dateShown.format(code.endsAt)}`,
    );
  const notApplicable = (message: string) => errors.badRequest('discount_not_applicable', message);
  if (code.productIds && !code.productIds.includes(product.id))
    return notApplicable('This discount code does not apply to this product');
  if (product.pricingType !== 'one_time')
    return notApplicable('Discount codes apply to one-time purchases, not subscriptions');
  if (product.minimumPriceMinor !== null)
    return notApplicable('Discount codes do not apply when you choose what to pay');
  if (code.kind === 'fixed' && code.currency !== product.currency)
    return notApplicable(`This discount code is for products priced in ${code.currency}`);
  if (code.maxUses !== null && usage.uses + usage.reserved >= code.maxUses)
    return errors.badRequest('discount_exhausted', 'This discount code has been used up');
  if (code.maxUsesPerBuyer !== null && buyerUses !== null && buyerUses >= code.maxUsesPerBuyer)
    return errors.badRequest('discount_used_by_buyer', 'You have already used this discount code');
  return null;
}

/**
 * The code a buyer typed for `product`, if they may use it now; otherwise the refusal in words.
 * With `lock` (checkout), the code's row stays locked until the caller's transaction ends, so
 * checkouts racing for the last use of a code take turns and only one gets it.
 */
export async function usableDiscount(
  db: Queryable,
  input: {
    code: string;
    product: Pick<ProductView, 'id' | 'ownerId' | 'currency' | 'pricingType' | 'minimumPriceMinor'>;
    buyerEmail: string | null;
    now: Date;
    lock: boolean;
  },
): Promise<DiscountCodeRow> {
  const typed = input.code.trim();
  const code = DISCOUNT_CODE_PATTERN.test(typed)
    ? await findDiscountCodeByCode(db, input.product.ownerId, typed, { forUpdate: input.lock })
    : null;
  if (!code)
    throw errors.badRequest(
      'discount_unknown',
      `We don't recognise the discount code ${typed.slice(0, 32)}`,
    );
  const usage = (await discountUsage(db, [code.id], input.now)).get(code.id) ?? {
    uses: 0,
    reserved: 0,
  };
  const buyerUses =
    code.maxUsesPerBuyer !== null && input.buyerEmail
      ? await buyerDiscountUses(db, code.id, input.now, input.buyerEmail)
      : null;
  const refusal = refusalOf(code, input.product, usage, buyerUses, input.now);
  if (refusal) throw refusal;
  return code;
}

function parseAmountOff(amount: string | number, currency: string): number {
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch (error) {
    if (error instanceof AmbiguousAmountError) throw invalid(error.message);
    throw invalid('The amount off must be a number, like 5 or 2.50');
  }
  if (minor < 1 || minor > MAX_AMOUNT_MINOR) throw invalid('The amount off must be more than zero');
  return minor;
}

/** The seller's input as a row, or the first thing wrong with it in words. */
async function rowFrom(
  db: Queryable,
  sellerId: string,
  input: DiscountCodeInput,
  base: Pick<DiscountCodeRow, 'id' | 'createdAt'>,
  now: Date,
): Promise<DiscountCodeRow> {
  const code = input.code.trim();
  if (!DISCOUNT_CODE_PATTERN.test(code))
    throw invalid('Codes are 3 to 32 letters, digits, dashes or underscores');
  let percentOff: number | null = null;
  let amountOff: number | null = null;
  let currency: string | null = null;
  if (input.kind === 'percent') {
    if (input.percentOff === null || input.percentOff < 1 || input.percentOff > 100)
      throw invalid('The percentage must be a whole number from 1 to 100');
    percentOff = input.percentOff;
  } else {
    if (!input.currency) throw invalid('Choose the currency of the amount off');
    try {
      currency = normalizeCurrency(input.currency);
    } catch {
      throw invalid(`Not a currency code: ${input.currency.slice(0, 8)}`);
    }
    if (input.amountOff === null || String(input.amountOff).trim() === '')
      throw invalid('Enter the amount off');
    amountOff = parseAmountOff(input.amountOff, currency);
  }
  const startsAt = input.startsAt ? new Date(input.startsAt) : null;
  const endsAt = input.endsAt ? new Date(input.endsAt) : null;
  if (startsAt && endsAt && endsAt <= startsAt) throw invalid('The end must come after the start');
  let productIds: string[] | null = null;
  if (input.productIds !== null) {
    productIds = [...new Set(input.productIds.map((id) => id.toLowerCase()))];
    if (productIds.length === 0)
      throw invalid('Choose at least one product, or let the code apply to all of them');
    const { rows } = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM products
       WHERE id::text = ANY($1) AND owner_id = $2 AND NOT deleted`,
      [productIds, sellerId],
    );
    if (rows[0]!.count !== productIds.length)
      throw invalid('A code can only apply to your own products');
  }
  return {
    id: base.id,
    sellerId,
    code,
    kind: input.kind,
    percentOff,
    amountOffMinor: amountOff,
    currency,
    productIds,
    startsAt,
    endsAt,
    maxUses: input.maxUses,
    maxUsesPerBuyer: input.maxUsesPerBuyer,
    active: input.active,
    createdAt: base.createdAt,
    updatedAt: now,
  };
}

const codeTaken = (code: string) =>
  errors.conflict('discount_code_taken', `You already have a code called ${code.toUpperCase()}`);

export interface DiscountDeps {
  pool: Pool;
  now: () => Date;
}

/** The dashboard's shape, and when the code last changed (the public API's `updated_at`). */
export type PresentedDiscountCode = DiscountCode & { updatedAt: string };

/** A stored code as the input that would make it again (a partial change is laid over it). */
function inputOf(row: DiscountCodeRow): DiscountCodeInput {
  return {
    code: row.code,
    kind: row.kind,
    percentOff: row.percentOff,
    amountOff:
      row.amountOffMinor === null ? null : minorToDecimalString(row.amountOffMinor, row.currency!),
    currency: row.currency,
    productIds: row.productIds,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    maxUses: row.maxUses,
    maxUsesPerBuyer: row.maxUsesPerBuyer,
    active: row.active,
  };
}

/** A seller's discount codes: made, changed and removed by their owner only, with their figures. */
const audited = (
  tx: Queryable,
  by: AuditedBy,
  sellerId: string,
  action: 'discount.created' | 'discount.updated' | 'discount.deleted',
  code: DiscountCodeRow,
) =>
  recordAction(
    tx,
    by.source,
    {
      storeId: sellerId,
      action,
      target: code.id,
      details: { code: code.code, label: discountLabel(code), active: code.active },
    },
    by.correlationId,
  );

export function createDiscountService({ pool, now }: DiscountDeps) {
  async function present(rows: DiscountCodeRow[]): Promise<PresentedDiscountCode[]> {
    const at = now();
    const ids = rows.map((row) => row.id);
    const [usage, revenue] = await Promise.all([
      discountUsage(pool, ids, at),
      discountRevenue(pool, ids),
    ]);
    return rows.map((row) => {
      const used = usage.get(row.id) ?? { uses: 0, reserved: 0 };
      return {
        id: row.id,
        code: row.code,
        kind: row.kind,
        percentOff: row.percentOff,
        amountOffMinor: row.amountOffMinor,
        amountOff:
          row.amountOffMinor === null
            ? null
            : minorToDecimalString(row.amountOffMinor, row.currency!),
        currency: row.currency,
        label: discountLabel(row),
        productIds: row.productIds,
        startsAt: row.startsAt?.toISOString() ?? null,
        endsAt: row.endsAt?.toISOString() ?? null,
        maxUses: row.maxUses,
        maxUsesPerBuyer: row.maxUsesPerBuyer,
        active: row.active,
        state: stateOf(row, used, at),
        uses: used.uses,
        reserved: used.reserved,
        revenue: revenue
          .filter((line) => line.codeId === row.id)
          .map((line) => ({
            currency: line.currency,
            amountMinor: line.amountMinor,
            formatted: formatMoney(line.amountMinor, line.currency),
          })),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }

  return {
    async list(sellerId: string): Promise<PresentedDiscountCode[]> {
      return present(await listDiscountCodes(pool, sellerId));
    },

    async read(sellerId: string, id: string): Promise<PresentedDiscountCode> {
      const row = await findOwnDiscountCode(pool, sellerId, id);
      if (!row) throw notFound();
      return (await present([row]))[0]!;
    },

    async create(
      sellerId: string,
      input: DiscountCodeInput,
      by: AuditedBy,
    ): Promise<PresentedDiscountCode> {
      const at = now();
      const row = await withTransaction(pool, async (tx) => {
        const created = await rowFrom(tx, sellerId, input, { id: randomUUID(), createdAt: at }, at);
        if (!(await insertDiscountCode(tx, created))) throw codeTaken(created.code);
        await audited(tx, by, sellerId, 'discount.created', created);
        return created;
      });
      return (await present([row]))[0]!;
    },

    /**
     * Replaces the code with `input`, or with what `change` makes of the code as it stands (a
     * partial update, laid over the current code under its row lock, so two never race).
     */
    async update(
      sellerId: string,
      id: string,
      input: DiscountCodeInput | ((current: DiscountCodeInput) => DiscountCodeInput),
      by: AuditedBy,
    ): Promise<PresentedDiscountCode> {
      const saved = await withTransaction(pool, async (tx) => {
        const current = await findOwnDiscountCode(tx, sellerId, id, { forUpdate: true });
        if (!current) throw notFound();
        const wanted = typeof input === 'function' ? input(inputOf(current)) : input;
        const next = await rowFrom(tx, sellerId, wanted, current, now());
        const clash = await findDiscountCodeByCode(tx, sellerId, next.code);
        if (clash && clash.id !== id) throw codeTaken(next.code);
        await saveDiscountCode(tx, next);
        await audited(tx, by, sellerId, 'discount.updated', next);
        return next;
      });
      return (await present([saved]))[0]!;
    },

    /** Only a code nobody has used or is using: its figures are the seller's sales history. */
    async remove(sellerId: string, id: string, by: AuditedBy): Promise<void> {
      await withTransaction(pool, async (tx) => {
        const current = await findOwnDiscountCode(tx, sellerId, id, { forUpdate: true });
        if (!current) throw notFound();
        const usage = (await discountUsage(tx, [id], now())).get(id);
        if (usage && usage.uses + usage.reserved > 0)
          throw errors.conflict('discount_in_use', 'This code has been used; turn it off instead');
        await deleteDiscountCode(tx, id);
        await audited(tx, by, sellerId, 'discount.deleted', current);
      });
    },
  };
}

export type DiscountService = ReturnType<typeof createDiscountService>;
