import { randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { convertMinor, exchangeRatio, formatMoney, normalizeCurrency } from '@lockdrop/money';
import { planById, platformFeeMinor } from '@lockdrop/plans';
import { z } from 'zod';
import {
  countRecentCheckouts,
  findProviderPlan,
  insertCheckout,
  rememberProviderPlan,
  setCheckoutStatus,
  type Checkout,
} from '../db/checkouts.repo.js';
import { findProduct, findSellerPlan, listExchangeRates } from '../db/read-models.repo.js';
import type { PaymentProvider } from '../providers/types.js';

export interface CheckoutDeps {
  pool: Pool;
  provider: PaymentProvider;
  publicUrl: string;
  emailLimit: number;
  emailWindowSeconds: number;
  now: () => Date;
  logger: { error(object: object, message: string): void };
}

export interface CheckoutRequest {
  productId: string;
  buyerEmail: string | undefined;
  currency: string | undefined;
  /** sha256 of the buyer's browser cookie: that browser may see the result without signing in. */
  browserKeyHash: string | null;
  correlationId: string;
}

const emailSchema = z.email().max(254);
const productIdSchema = z.uuid();

/** Spec §5/§8: a missing or malformed e-mail gets the same message. */
function buyerEmailOf(value: string | undefined): string {
  const parsed = emailSchema.safeParse(value?.trim());
  if (!parsed.success) throw errors.badRequest('email_required', 'Please enter your email');
  return parsed.data;
}

function currencyOf(value: string | undefined, fallback: string): string {
  if (value === undefined || value === '') return fallback;
  try {
    return normalizeCurrency(value);
  } catch {
    throw errors.badRequest('invalid_currency', `Not a currency code: ${value}`);
  }
}

/**
 * Starts a checkout: snapshots price, the seller's plan fee and the exchange rate, records the
 * checkout under a fresh `tx_ref`, then asks the provider for its hosted page. The checkout row
 * is committed before the provider hears of the `tx_ref`, so its webhook can always find it.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  request: CheckoutRequest,
): Promise<{ link: string; txRef: string }> {
  const buyerEmail = buyerEmailOf(request.buyerEmail);
  const notFound = errors.notFound('product_not_found', 'Product not found');
  if (!productIdSchema.safeParse(request.productId).success) throw notFound;
  const product = await findProduct(deps.pool, request.productId);
  if (!product || product.deleted) throw notFound;
  if (product.status !== 'published') {
    throw errors.conflict(
      'product_not_published',
      'This product is not published; checkout may be blocked.',
    );
  }
  const billingInterval = product.pricingType === 'one_time' ? null : product.billingInterval;
  if (product.pricingType !== 'one_time' && !billingInterval) {
    // A recurring product whose interval this read model has not heard yet (rows from before
    // intervals were kept): never guess how often to charge.
    throw new AppError(
      'subscriptions_unavailable',
      503,
      'This subscription cannot be bought right now, please try again in a minute',
    );
  }

  const currency = currencyOf(request.currency, product.currency);
  const rates = currency === product.currency ? [] : await listExchangeRates(deps.pool);
  const conversion = convertMinor(product.priceMinor, product.currency, currency, rates);
  if (!conversion.converted) {
    throw errors.badRequest(
      'currency_not_supported',
      `Payment in ${currency} is not available for this product`,
    );
  }
  if (conversion.amountMinor <= 0)
    throw errors.badRequest('amount_too_small', 'The price is too small to pay in this currency');
  const ratio =
    currency === product.currency ? null : exchangeRatio(product.currency, currency, rates)!;

  const plan = planById(await findSellerPlan(deps.pool, product.ownerId));
  const now = deps.now();
  const checkout = {
    id: randomUUID(),
    txRef: newTxRef(),
    provider: deps.provider.name,
    status: 'creating' as const,
    productId: product.id,
    sellerId: product.ownerId,
    productTitle: product.title,
    fileId: product.fileId,
    fileName: product.fileName,
    buyerEmail,
    priceMinor: product.priceMinor,
    priceCurrency: product.currency,
    amountMinor: conversion.amountMinor,
    currency,
    // Exact ratio (numerator/denominator) of the rate used, so the conversion can be replayed.
    fxRate: ratio ? `${ratio.numerator}/${ratio.denominator}` : null,
    plan: plan.id,
    platformFeeBps: plan.platformFeeBps,
    platformFeeMinor: platformFeeMinor(plan, conversion.amountMinor),
    browserKeyHash: request.browserKeyHash,
    correlationId: request.correlationId,
    createdAt: now,
    kind: 'product' as const,
    billingInterval,
    userId: null,
    planBought: null,
    subscriptionId: null,
    renewsPeriodStart: null,
  };
  return openCheckout(deps, checkout);
}

/**
 * Records a checkout (under the per-e-mail limit), then asks the provider for its hosted page.
 * The row is committed before the provider hears of the `tx_ref`, so its webhook can always
 * find it. Product checkouts announce `checkout.started` (analytics' funnel).
 */
export async function openCheckout(
  deps: CheckoutDeps,
  checkout: Omit<Checkout, 'link'>,
): Promise<{ link: string; txRef: string }> {
  const { buyerEmail, currency } = checkout;
  const now = checkout.createdAt;
  await withTransaction(deps.pool, async (tx) => {
    const since = new Date(now.getTime() - deps.emailWindowSeconds * 1000);
    if ((await countRecentCheckouts(tx, buyerEmail, since)) >= deps.emailLimit) {
      throw errors.tooManyRequests('Too many checkouts for this e-mail, please try again later');
    }
    await insertCheckout(tx, checkout);
  });

  let link: string;
  try {
    const recurring = checkout.billingInterval
      ? {
          interval: checkout.billingInterval,
          providerPlanId: await providerPlanFor(deps, checkout),
        }
      : null;
    ({ link } = await deps.provider.createPaymentLink({
      checkoutId: checkout.id,
      txRef: checkout.txRef,
      amountMinor: checkout.amountMinor,
      currency,
      buyerEmail,
      productTitle: checkout.productTitle,
      redirectUrl:
        checkout.kind === 'plan'
          ? `${deps.publicUrl}/settings?plan_payment=1`
          : `${deps.publicUrl}/payment/success`,
      recurring,
    }));
  } catch (error) {
    deps.logger.error(
      { err: error, txRef: checkout.txRef },
      'provider did not create a payment link',
    );
    // Never retried: Flutterwave may still be creating it (payments-contract: 503 after 28 s).
    await setCheckoutStatus(deps.pool, checkout.id, 'not_started', ['creating']);
    throw new AppError('checkout_failed', 502, 'Failed to start checkout');
  }

  await withTransaction(deps.pool, async (tx) => {
    await setCheckoutStatus(tx, checkout.id, 'open', ['creating'], link);
    if (checkout.kind !== 'product') return;
    await enqueueEvent(
      tx,
      createEvent(
        'checkout.started',
        {
          checkoutId: checkout.id,
          txRef: checkout.txRef,
          productId: checkout.productId!,
          sellerId: checkout.sellerId!,
          buyerEmail,
          amountMinor: checkout.amountMinor,
          currency,
        },
        { correlationId: checkout.correlationId },
      ),
    );
  });
  return { link, txRef: checkout.txRef };
}

/**
 * The provider's payment plan for this price (providers that charge renewals themselves), made
 * once per amount, currency and interval and remembered; null for providers we charge through.
 */
async function providerPlanFor(
  deps: CheckoutDeps,
  checkout: Pick<Checkout, 'billingInterval' | 'amountMinor' | 'currency' | 'productTitle'>,
): Promise<string | null> {
  if (!deps.provider.ensurePaymentPlan || !checkout.billingInterval) return null;
  const key = {
    provider: deps.provider.name,
    interval: checkout.billingInterval,
    amountMinor: checkout.amountMinor,
    currency: checkout.currency,
  };
  const known = await findProviderPlan(deps.pool, key);
  if (known) return known;
  const created = await deps.provider.ensurePaymentPlan({
    name: `Lockdrop ${formatMoney(checkout.amountMinor, checkout.currency)} ${checkout.billingInterval}`,
    interval: checkout.billingInterval,
    amountMinor: checkout.amountMinor,
    currency: checkout.currency,
  });
  return rememberProviderPlan(deps.pool, key, created);
}

/** A fresh, unguessable `tx_ref` (our reference for one payment attempt at the provider). */
export function newTxRef(): string {
  return `ld_${randomBytes(12).toString('hex')}`;
}
