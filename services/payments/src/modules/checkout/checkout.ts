import type { FxPolicy } from '../read-models/index.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type CheckoutStarted } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import { planById, platformFeeMinor, type PlanId } from '@lockdrop/plans';
import { z } from 'zod';
import {
  countRecentCheckouts,
  findCheckoutByTxRef,
  findOpenDiscountCheckout,
  findPendingFreeClaim,
  insertCheckout,
  insertFreeClaim,
  setCheckoutStatus,
  type NewCheckout,
  type ProductCheckout,
} from '../sales/index.js';
import { findSellerPlan, findShownBrand } from '../read-models/index.js';
import { findSubscription, planPrice } from '../subscriptions/index.js';
import type { StoreOrigin } from '../../http/store-origin.js';
import type { PaymentProvider } from '../../providers/types.js';
import { checkoutableProduct, currencyOf, isBlank, priceCheckout } from './pricing.js';
import type { SaleDeps } from '../sales/index.js';
import {
  mailConfirmationLink,
  proofOf,
  recordFreeClaim,
  requireFreeClaimBudget,
  type FreeClaimSettings,
} from './free-claims.js';

export interface CheckoutDeps {
  pool: Pool;
  provider: PaymentProvider;
  publicUrl: string;
  emailLimit: number;
  emailWindowSeconds: number;
  now: () => Date;
  logger: { error(object: object, message: string): void };
  fx: FxPolicy;
}

/** A buyer's checkout of a product also needs what records a sale (free claims settle at once). */
export interface ProductCheckoutDeps extends CheckoutDeps {
  sale: SaleDeps & { pool: Pool; onMailQueued: () => void };
  /** Free claims: confirmation links, their cool-down, and the per-hour limits (issue 30). */
  freeClaims: FreeClaimSettings;
  /** How long a discounted checkout's payment page takes payment (and holds the code's use). */
  discountCheckoutMinutes: number;
}

export interface CheckoutRequest {
  productId: string;
  buyerEmail: string | undefined;
  currency: string | undefined;
  discountCode: string | undefined;
  /** Pay what you want: the amount typed, in major units of the currency. */
  amount: string | number | undefined;
  /** sha256 of the buyer's browser cookie: that browser may see the result without signing in. */
  browserKeyHash: string | null;
  /** The signed-in buyer's account e-mail when identity has verified it: proven for a free claim. */
  verifiedAccountEmail: string | null;
  /**
   * The store's custom domain the buyer checks out on (the gateway's word, issue 28): the
   * provider sends them back there when the product is that store's.
   */
  storeOrigin: StoreOrigin | null;
  correlationId: string;
}

const emailSchema = z.email().max(254);

/** Spec §5/§8: a missing or malformed e-mail gets the same message. */
function buyerEmailOf(value: string | undefined): string {
  const parsed = emailSchema.safeParse(value?.trim());
  if (!parsed.success) throw errors.badRequest('email_required', 'Please enter your email');
  return parsed.data;
}

/**
 * Starts a checkout: prices it (code, pay-what-you-want amount, exchange rate — the same rule
 * the quote shows), snapshots the seller's plan fee, and records it under a fresh `tx_ref`, then
 * asks the provider for its hosted page. A checkout that costs nothing is a free claim
 * (`free-claims.ts`): by an address that has proven itself it is a purchase at once, recorded
 * like a paid one, and its link is our success page; any other address is sent one confirmation
 * e-mail and the answer says so (`confirmEmail`). A code's uses are counted under the code's row
 * lock in the transaction that records the checkout, so racing checkouts never use a limited
 * code past its limit.
 */
export async function startCheckout(
  deps: ProductCheckoutDeps,
  request: CheckoutRequest,
): Promise<CheckoutStarted> {
  const buyerEmail = buyerEmailOf(request.buyerEmail);
  const product = await checkoutableProduct(deps.pool, request.productId);
  const billingInterval = product.pricingType === 'one_time' ? null : product.billingInterval;
  const plan = planById(await findSellerPlan(deps.pool, product.ownerId));
  const now = deps.now();
  // Another store's domain never becomes this product's way back: only its own store's does.
  const storeOrigin =
    request.storeOrigin?.sellerId === product.ownerId ? request.storeOrigin.origin : null;
  const returnOrigin = storeOrigin ?? deps.publicUrl;

  const recorded = await withTransaction(
    deps.pool,
    async (tx): Promise<{ checkout: Omit<ProductCheckout, 'link'>; link: string | null }> => {
      await requireCheckoutBudget(tx, deps, buyerEmail, now);
      if (!isBlank(request.discountCode)) {
        const open = await findOpenDiscountCheckout(
          tx,
          {
            discountCode: request.discountCode,
            productId: product.id,
            buyerEmail,
            currency: currencyOf(request.currency, product.currency),
          },
          now,
        );
        if (open?.link) return { checkout: open as ProductCheckout, link: open.link };
      }
      const priced = await priceCheckout(tx, product, {
        currency: request.currency,
        discountCode: request.discountCode,
        amount: request.amount,
        buyerEmail,
        now,
        lock: true,
        fx: deps.fx,
      });
      const free = priced.amountMinor === 0;
      const proof = free ? await proofOf(tx, buyerEmail, request.verifiedAccountEmail) : null;
      const awaitingEmail = free && proof === null;
      if (awaitingEmail) {
        // A repeat claim by the same unconfirmed address: the same claim, at most one e-mail
        // per cool-down, and the same answer either way.
        const pending = await findPendingFreeClaim(tx, product.id, buyerEmail, now);
        if (pending) {
          await mailConfirmationLink(
            tx,
            deps,
            { ...pending, productTitle: product.title, buyerEmail },
            now,
          );
          const checkout = await findCheckoutByTxRef(tx, pending.txRef);
          return { checkout: checkout as ProductCheckout, link: null };
        }
      }
      if (free) {
        await requireFreeClaimBudget(
          tx,
          deps.freeClaims,
          { productId: product.id, sellerId: product.ownerId, buyerEmail },
          now,
        );
      }
      const claimExpiresAt = new Date(now.getTime() + deps.freeClaims.confirmMinutes * 60_000);
      const checkout: Omit<ProductCheckout, 'link'> = {
        id: randomUUID(),
        txRef: newTxRef(),
        provider: free ? FREE_CLAIM_PROVIDER : deps.provider.name,
        status: awaitingEmail ? 'awaiting_email' : 'creating',
        productId: product.id,
        sellerId: product.ownerId,
        productTitle: product.title,
        fileId: product.fileId,
        fileName: product.fileName,
        buyerEmail,
        priceMinor: product.priceMinor,
        priceCurrency: product.currency,
        amountMinor: priced.amountMinor,
        currency: priced.currency,
        fxRate: priced.fxRate,
        plan: plan.id,
        platformFeeBps: plan.platformFeeBps,
        platformFeeMinor: platformFeeMinor(plan, priced.amountMinor),
        browserKeyHash: request.browserKeyHash,
        correlationId: request.correlationId,
        createdAt: now,
        kind: 'product',
        billingInterval,
        userId: null,
        planBought: null,
        subscriptionId: null,
        renewsPeriodStart: null,
        storeOrigin,
        discountCodeId: priced.discount?.code.id ?? null,
        discountCode: priced.discount?.code.code ?? null,
        discountMinor: priced.discount?.offMinor ?? 0,
        // A pending claim holds its code's use while its confirmation link works.
        expiresAt: priced.discount
          ? awaitingEmail
            ? claimExpiresAt
            : new Date(now.getTime() + deps.discountCheckoutMinutes * 60_000)
          : null,
      };
      await insertCheckout(tx, checkout);
      if (!free) return { checkout, link: null };
      await enqueueCheckoutStarted(tx, checkout);
      await insertFreeClaim(tx, {
        checkoutId: checkout.id,
        productId: product.id,
        buyerEmail,
        createdAt: now,
        expiresAt: claimExpiresAt,
        confirmedAt: proof && now,
        proof,
      });
      if (awaitingEmail) {
        await mailConfirmationLink(
          tx,
          deps,
          {
            checkoutId: checkout.id,
            productTitle: product.title,
            buyerEmail,
            lastLinkAt: null,
            sellerId: product.ownerId,
            storeOrigin,
          },
          now,
        );
        return { checkout, link: null };
      }
      await recordFreeClaim(tx, deps.sale, { ...checkout, link: null });
      return { checkout, link: successUrl(returnOrigin, checkout.txRef) };
    },
  );
  const { checkout, link } = recorded;
  if (checkout.amountMinor === 0 && checkout.provider === FREE_CLAIM_PROVIDER) {
    deps.sale.onMailQueued();
    return { link, txRef: checkout.txRef, confirmEmail: link === null };
  }
  if (link) return { link, txRef: checkout.txRef, confirmEmail: false };
  return {
    ...(await requestPaymentLink(deps, checkout, {
      sessionMinutes: checkout.expiresAt ? deps.discountCheckoutMinutes : null,
      returnOrigin,
    })),
    confirmEmail: false,
  };
}

/** `checkouts.provider` of a purchase that cost nothing: no provider took part. */
export const FREE_CLAIM_PROVIDER = 'free';

function successUrl(publicUrl: string, txRef: string): string {
  const url = new URL(`${publicUrl}/payment/success`);
  url.searchParams.set('status', 'successful');
  url.searchParams.set('tx_ref', txRef);
  return url.toString();
}

/**
 * Records a checkout (under the per-e-mail limit), then asks the provider for its hosted page.
 * The row is committed before the provider hears of the `tx_ref`, so its webhook can always
 * find it.
 */
export async function openCheckout(
  deps: CheckoutDeps,
  checkout: NewCheckout,
): Promise<{ link: string; txRef: string }> {
  await withTransaction(deps.pool, async (tx) => {
    await requireCheckoutBudget(tx, deps, checkout.buyerEmail, checkout.createdAt);
    await insertCheckout(tx, checkout);
  });
  return requestPaymentLink(deps, checkout, { sessionMinutes: null, returnOrigin: deps.publicUrl });
}

/** Checkouts one e-mail may start per window, counted under a per-e-mail lock. */
async function requireCheckoutBudget(
  tx: PoolClient,
  deps: CheckoutDeps,
  buyerEmail: string,
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - deps.emailWindowSeconds * 1000);
  if ((await countRecentCheckouts(tx, buyerEmail, since)) >= deps.emailLimit) {
    throw errors.tooManyRequests('Too many checkouts for this e-mail, please try again later');
  }
}

/**
 * Asks the provider for the hosted page of a recorded checkout. Product checkouts then announce
 * `checkout.started` (analytics' funnel).
 */
async function requestPaymentLink(
  deps: CheckoutDeps,
  checkout: NewCheckout,
  {
    sessionMinutes,
    returnOrigin,
  }: {
    sessionMinutes: number | null;
    /** Where the provider sends the buyer back: our site, or the store's custom domain. */
    returnOrigin: string;
  },
): Promise<{ link: string; txRef: string }> {
  const { buyerEmail, currency } = checkout;
  let link: string;
  // The hosted page shows the seller's store (Pro and up), never Lockdrop's header, for products.
  const brand =
    checkout.kind === 'product' ? await findShownBrand(deps.pool, checkout.sellerId!) : null;
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
          : `${returnOrigin}/payment/success`,
      recurring,
      sessionMinutes,
      brand: brand && {
        name: brand.name,
        logoUrl: brand.logoUrl && `${deps.publicUrl}${brand.logoUrl}`,
      },
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
    if (checkout.kind === 'product') await enqueueCheckoutStarted(tx, checkout);
  });
  return { link, txRef: checkout.txRef };
}

async function enqueueCheckoutStarted(
  tx: PoolClient,
  checkout: Omit<ProductCheckout, 'link'>,
): Promise<void> {
  await enqueueEvent(
    tx,
    createEvent(
      'checkout.started',
      {
        checkoutId: checkout.id,
        txRef: checkout.txRef,
        productId: checkout.productId,
        sellerId: checkout.sellerId,
        buyerEmail: checkout.buyerEmail,
        amountMinor: checkout.amountMinor,
        currency: checkout.currency,
      },
      { correlationId: checkout.correlationId },
    ),
  );
}

/**
 * The provider's payment plan this checkout subscribes under (providers that charge renewals
 * themselves). Every Lockdrop subscription has a plan of its own, so a renewal, a cancel or a
 * resume names exactly one subscription (issue 30; a plan shared per price let one seller's
 * subscription take another's renewals): a checkout that pays a period of an existing
 * subscription reuses its plan, anything else gets a new plan at the price renewals will charge
 * (a plan upgrade's prorated first charge is a one-off).
 */
async function providerPlanFor(deps: CheckoutDeps, checkout: NewCheckout): Promise<string | null> {
  if (!deps.provider.ensurePaymentPlan || !checkout.billingInterval) return null;
  if (checkout.subscriptionId && checkout.renewsPeriodStart) {
    const paying = await findSubscription(deps.pool, checkout.subscriptionId);
    if (paying?.providerPlanId) return paying.providerPlanId;
  }
  const renewalMinor =
    checkout.kind === 'plan'
      ? planPrice(
          planById(checkout.planBought as PlanId),
          checkout.billingInterval,
          checkout.currency,
        )
      : checkout.amountMinor;
  return deps.provider.ensurePaymentPlan({
    name: `Lockdrop ${checkout.productTitle} ${checkout.billingInterval} (${checkout.id})`,
    interval: checkout.billingInterval,
    amountMinor: renewalMinor,
    currency: checkout.currency,
  });
}

/** A fresh, unguessable `tx_ref` (our reference for one payment attempt at the provider). */
export function newTxRef(): string {
  return `ld_${randomBytes(12).toString('hex')}`;
}
