import type { CheckoutQuote } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import {
  AmbiguousAmountError,
  convertMinor,
  exchangeRatio,
  formatMoney,
  minorToDecimalString,
  normalizeCurrency,
  toMinor,
  type ExchangeRate,
} from '@lockdrop/money';
import type { DiscountCodeRow } from '../discounts/index.js';
import {
  findProduct,
  usableExchangeRates,
  withBuyerSpread,
  type FxPolicy,
  type ProductView,
} from '../read-models/index.js';
import { amountOffMinor, discountLabel, usableDiscount } from '../discounts/index.js';

/** Far above any real price and well inside the safe-integer range of minor units. */
const MAX_AMOUNT_MINOR = 1_000_000_000_000;

const productIdSchema = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A product a buyer may check out now: published, not deleted, with a known billing interval. */
export async function checkoutableProduct(db: Queryable, productId: string): Promise<ProductView> {
  const notFound = errors.notFound('product_not_found', 'Product not found');
  if (!productIdSchema.test(productId)) throw notFound;
  const product = await findProduct(db, productId);
  if (!product || product.deleted) throw notFound;
  if (product.status !== 'published') {
    throw errors.conflict(
      'product_not_published',
      'This product is not published; checkout may be blocked.',
    );
  }
  if (product.pricingType !== 'one_time' && !product.billingInterval) {
    // A recurring product whose interval this read model has not heard yet (rows from before
    // intervals were kept): never guess how often to charge.
    throw new AppError(
      'subscriptions_unavailable',
      503,
      'This subscription cannot be bought right now, please try again in a minute',
    );
  }
  return product;
}

export interface PriceRequest {
  currency: string | undefined;
  discountCode: string | undefined;
  amount: string | number | undefined;
  buyerEmail: string | null;
  now: Date;
  /** Checkout: lock the code's row until the caller's transaction ends. */
  lock: boolean;
  /** Which rates are fresh enough, and the conversion spread. */
  fx: FxPolicy;
}

/** What a checkout of a product charges, every figure in `currency`. */
export interface PricedCheckout {
  currency: string;
  /** The product's price (the suggestion, for pay what you want). */
  listMinor: number;
  discount: { code: DiscountCodeRow; offMinor: number } | null;
  /** Pay what you want: the least accepted. */
  minimumMinor: number | null;
  amountMinor: number;
  /** Exact ratio (numerator/denominator) of the rate used, so the conversion can be replayed. */
  fxRate: string | null;
}

export const isBlank = (value: string | number | undefined): value is undefined =>
  value === undefined || String(value).trim() === '';

/** The currency a checkout charges in: the one the buyer asked for, else the product's. */
export function currencyOf(value: string | undefined, fallback: string): string {
  if (isBlank(value)) return fallback;
  try {
    return normalizeCurrency(value);
  } catch {
    throw errors.badRequest('invalid_currency', `Not a currency code: ${value.slice(0, 8)}`);
  }
}

function buyerAmountOf(amount: string | number, currency: string): number {
  const invalid = () =>
    errors.badRequest('invalid_amount', 'Please enter the amount you want to pay, like 12.50');
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch (error) {
    if (error instanceof AmbiguousAmountError)
      throw errors.badRequest('invalid_amount', error.message);
    throw invalid();
  }
  if (minor < 0 || minor > MAX_AMOUNT_MINOR) throw invalid();
  return minor;
}

/**
 * The one pricing rule for a product checkout, used by the quote the product page shows and by
 * checkout itself, so the buyer pays exactly what they were shown. A code comes off the price in
 * the product's currency and the rest is converted; a pay-what-you-want amount is typed in the
 * buyer's currency and compared with the converted minimum.
 */
export async function priceCheckout(
  db: Queryable,
  product: ProductView,
  request: PriceRequest,
): Promise<PricedCheckout> {
  const currency = currencyOf(request.currency, product.currency);
  // Stale rates are not rates (issue 30): with none fresh, only the product's currency is sold.
  const rates: ExchangeRate[] =
    currency === product.currency ? [] : await usableExchangeRates(db, request.fx, request.now);
  const convert = (minor: number, rounding: 'nearest' | 'up' = 'nearest'): number => {
    if (currency === product.currency || minor === 0) return minor;
    const conversion = convertMinor(minor, product.currency, currency, rates, { rounding });
    if (!conversion.converted) {
      throw errors.badRequest(
        'currency_not_supported',
        `Payment in ${currency} is not available for this product`,
      );
    }
    return withBuyerSpread(conversion.amountMinor, request.fx);
  };
  const tooSmall = () =>
    errors.badRequest('amount_too_small', 'The price is too small to pay in this currency');

  const listMinor = convert(product.priceMinor);
  let discount: PricedCheckout['discount'] = null;
  let minimumMinor: number | null = null;
  let amountMinor = listMinor;
  if (!isBlank(request.discountCode)) {
    const code = await usableDiscount(db, {
      code: request.discountCode,
      product,
      buyerEmail: request.buyerEmail,
      now: request.now,
      lock: request.lock,
    });
    const netMinor = product.priceMinor - amountOffMinor(code, product.priceMinor);
    amountMinor = convert(netMinor);
    if (netMinor > 0 && amountMinor === 0) throw tooSmall();
    discount = { code, offMinor: listMinor - amountMinor };
  } else if (product.minimumPriceMinor !== null) {
    // Rounded up: a positive minimum that converted to nothing would make the file free.
    minimumMinor = convert(product.minimumPriceMinor, 'up');
    if (!isBlank(request.amount)) amountMinor = buyerAmountOf(request.amount, currency);
    if (amountMinor < minimumMinor) {
      throw errors.badRequest(
        'amount_below_minimum',
        `The minimum for this product is ${formatMoney(minimumMinor, currency)}`,
      );
    }
  } else if (listMinor === 0) {
    throw tooSmall();
  }
  const ratio =
    currency === product.currency ? null : exchangeRatio(product.currency, currency, rates);
  return {
    currency,
    listMinor,
    discount,
    minimumMinor,
    amountMinor,
    fxRate: ratio ? `${ratio.numerator}/${ratio.denominator}` : null,
  };
}

function shown(minor: number, currency: string) {
  return {
    amountMinor: minor,
    amount: minorToDecimalString(minor, currency),
    formatted: formatMoney(minor, currency),
  };
}

/** What the product page shows before checkout: the same figures checkout will charge. */
export async function quoteCheckout(
  db: Queryable,
  request: Omit<PriceRequest, 'lock'> & { productId: string },
): Promise<CheckoutQuote> {
  const product = await checkoutableProduct(db, request.productId);
  const priced = await priceCheckout(db, product, { ...request, lock: false });
  const { currency } = priced;
  return {
    currency,
    listPrice: shown(priced.listMinor, currency),
    discount: priced.discount
      ? {
          code: priced.discount.code.code,
          label: discountLabel(priced.discount.code),
          amountOff: shown(priced.discount.offMinor, currency),
        }
      : null,
    minimum: priced.minimumMinor === null ? null : shown(priced.minimumMinor, currency),
    total: shown(priced.amountMinor, currency),
  };
}
