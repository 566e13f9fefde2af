import { randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { convertMinor, exchangeRatio, normalizeCurrency } from '@lockdrop/money';
import { planById, platformFeeMinor } from '@lockdrop/plans';
import { z } from 'zod';
import { countRecentCheckouts, insertCheckout, setCheckoutStatus } from '../db/checkouts.repo.js';
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
  if (product.pricingType !== 'one_time') {
    throw errors.conflict('subscriptions_unavailable', 'Subscriptions cannot be bought yet');
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
    txRef: `ld_${randomBytes(12).toString('hex')}`,
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
  };

  await withTransaction(deps.pool, async (tx) => {
    const since = new Date(now.getTime() - deps.emailWindowSeconds * 1000);
    if ((await countRecentCheckouts(tx, buyerEmail, since)) >= deps.emailLimit) {
      throw errors.tooManyRequests('Too many checkouts for this e-mail, please try again later');
    }
    await insertCheckout(tx, checkout);
  });

  let link: string;
  try {
    ({ link } = await deps.provider.createPaymentLink({
      checkoutId: checkout.id,
      txRef: checkout.txRef,
      amountMinor: checkout.amountMinor,
      currency,
      buyerEmail,
      productTitle: product.title,
      redirectUrl: `${deps.publicUrl}/payment/success`,
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
    await enqueueEvent(
      tx,
      createEvent(
        'checkout.started',
        {
          checkoutId: checkout.id,
          txRef: checkout.txRef,
          productId: checkout.productId,
          sellerId: checkout.sellerId,
          buyerEmail,
          amountMinor: checkout.amountMinor,
          currency,
        },
        { correlationId: request.correlationId },
      ),
    );
  });
  return { link, txRef: checkout.txRef };
}
