import { createHmac } from 'node:crypto';
import { hashBrowserKey, newBearerSecret, sha256Hex } from '@lockdrop/auth';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMails, renderEmail, type MailMessage } from '@lockdrop/mailer';
import {
  confirmFreeClaim,
  countRecentFreeClaims,
  findPurchaseByCheckout,
  hasConfirmedPurchase,
  insertFreeClaimLink,
  lockCheckoutToSettle,
  lockFreeClaimByLink,
  recordSale,
  type FreeClaimProof,
  type ProductCheckout,
  type SaleDeps,
} from '../sales/index.js';
import { buyerLinkOrigin, findSellerDomain } from '../read-models/index.js';
import type { StoreOrigin } from '../../http/store-origin.js';

/**
 * Issue 30 item 10: a claim that costs nothing must not let anyone make Lockdrop mail any
 * address. An address that has not proven it reads its mail gets one short confirmation e-mail
 * (no seller-written text but the title, no file) and nothing else until it opens the link; free
 * claims are limited per product, seller and address, counted in the database so replicas agree.
 */
export interface FreeClaimSettings {
  /** FREE_CLAIM_CONFIRM_MINUTES: how long a confirmation link works (and a 100 % code's use is held). */
  confirmMinutes: number;
  /** FREE_CLAIM_MAIL_COOLDOWN_SECONDS: no second confirmation e-mail for the same claim sooner. */
  mailCooldownSeconds: number;
  /** FREE_CLAIMS_PER_PRODUCT_PER_HOUR, …_PER_SELLER_…, …_PER_EMAIL_…: new free claims per hour. */
  perProductPerHour: number;
  perSellerPerHour: number;
  perEmailPerHour: number;
}

export interface FreeClaimDeps {
  publicUrl: string;
  freeClaims: FreeClaimSettings;
  sale: SaleDeps & { onMailQueued: () => void };
  now: () => Date;
}

const HOUR_MS = 3_600_000;

export const freeClaimErrors = {
  linkInvalid: () => new AppError('claim_link_invalid', 404, 'This confirmation link is not valid'),
  linkExpired: () =>
    new AppError(
      'claim_link_expired',
      410,
      'This confirmation link has expired; claim the product again to get a new one',
    ),
  tooMany: (retryAfterSeconds: number) =>
    new AppError('rate_limited', 429, 'Too many free claims right now, please try again later', {
      retryAfterSeconds,
    }),
};

/**
 * How this address has already proven itself, or null: the signed-in account's verified e-mail
 * is it, or it has a confirmed purchase (paid, or a free claim it confirmed).
 */
export async function proofOf(
  tx: PoolClient,
  buyerEmail: string,
  verifiedAccountEmail: string | null,
): Promise<FreeClaimProof | null> {
  if (verifiedAccountEmail?.toLowerCase() === buyerEmail.toLowerCase()) return 'verified_account';
  return (await hasConfirmedPurchase(tx, buyerEmail)) ? 'earlier_purchase' : null;
}

/**
 * Refuses a new free claim past a per-hour limit (429 with when to try again): per product, per
 * seller, per address. Checked after the per-e-mail checkout lock and under a per-seller lock.
 */
export async function requireFreeClaimBudget(
  tx: PoolClient,
  limits: FreeClaimSettings,
  claim: { productId: string; sellerId: string; buyerEmail: string },
  now: Date,
): Promise<void> {
  const recent = await countRecentFreeClaims(tx, claim, new Date(now.getTime() - HOUR_MS));
  const waits = (
    [
      [recent.product, limits.perProductPerHour],
      [recent.seller, limits.perSellerPerHour],
      [recent.email, limits.perEmailPerHour],
    ] as const
  )
    .filter(([times, limit]) => times.length >= limit)
    // The claim that frees a place is the oldest of the last `limit`, an hour after it was made.
    .map(([times, limit]) => times[times.length - limit]!.getTime() + HOUR_MS - now.getTime());
  if (waits.length > 0) {
    throw freeClaimErrors.tooMany(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
  }
}

/**
 * Mails a new confirmation link for a pending claim, unless one went out within the cool-down
 * (a repeat claim then sends nothing, and says the same "check your e-mail").
 */
export async function mailConfirmationLink(
  tx: PoolClient,
  deps: Pick<FreeClaimDeps, 'publicUrl' | 'freeClaims'>,
  claim: {
    checkoutId: string;
    productTitle: string;
    buyerEmail: string;
    lastLinkAt: Date | null;
    sellerId: string;
    /** The store's domain the claim was made on (issue 28): the link leads back there. */
    storeOrigin: string | null;
  },
  now: Date,
): Promise<boolean> {
  const cooledAt = now.getTime() - deps.freeClaims.mailCooldownSeconds * 1000;
  if (claim.lastLinkAt && claim.lastLinkAt.getTime() > cooledAt) return false;
  const { secret, hash } = newBearerSecret();
  const origin = buyerLinkOrigin(
    deps.publicUrl,
    claim.storeOrigin,
    claim.storeOrigin ? await findSellerDomain(tx, claim.sellerId) : null,
  );
  await insertFreeClaimLink(tx, { tokenHash: hash, checkoutId: claim.checkoutId, createdAt: now });
  await enqueueMails(tx, [
    confirmClaimEmail({
      to: claim.buyerEmail,
      productTitle: claim.productTitle,
      url: `${origin}/api/checkout/claims/confirm?token=${secret}`,
      validMinutes: deps.freeClaims.confirmMinutes,
    }),
  ]);
  return true;
}

/** The one e-mail an unproven address gets: the product's title and a link, nothing the seller wrote. */
export function confirmClaimEmail(input: {
  to: string;
  productTitle: string;
  url: string;
  validMinutes: number;
}): MailMessage {
  const hours = input.validMinutes % 60 === 0 ? input.validMinutes / 60 : null;
  const valid =
    hours === null ? `${input.validMinutes} minutes` : `${hours} hour${hours === 1 ? '' : 's'}`;
  const rendered = renderEmail({
    subject: `Confirm your e-mail to get ${input.productTitle}`,
    heading: 'Confirm your e-mail',
    paragraphs: [
      `Someone asked for "${input.productTitle}" for free with this address. Open the link below to confirm it is yours and get your file.`,
      `The link works once and for ${valid}.`,
    ],
    action: { label: 'Confirm and get your file', url: input.url },
    footnote: 'If this was not you, ignore this e-mail: nothing else will be sent to this address.',
    brand: null,
  });
  return { to: input.to, ...rendered };
}

/**
 * The receipt link a confirmation link leads to, derived from the link's own secret so a second
 * click lands on the same receipt, while only hashes are stored (a database leak opens neither).
 */
export function receiptOfLink(secret: string): { token: string; tokenHash: string } {
  const token = createHmac('sha256', secret).update('lockdrop-claim-receipt').digest('base64url');
  return { token, tokenHash: sha256Hex(token) };
}

/**
 * A claim that cost nothing becomes a purchase: the same purchase, `purchase.paid` (delivery's
 * entitlement), receipt and seller e-mail as any sale, with no journal (no money moved). Both a
 * proven address's claim and a confirmed one come here.
 */
export async function recordFreeClaim(
  tx: PoolClient,
  sale: SaleDeps,
  checkout: ProductCheckout,
  receipt?: { token: string; tokenHash: string },
): Promise<void> {
  await recordSale(
    tx,
    sale,
    checkout,
    {
      transactionId: `free_${checkout.id}`,
      txRef: checkout.txRef,
      status: 'successful',
      amountMinor: 0,
      currency: checkout.currency,
      processorFeeMinor: 0,
    },
    null,
    undefined,
    receipt,
  );
}

/**
 * Opens a confirmation link: the claim becomes a purchase once, under its row lock, and the
 * answer is its receipt page. A second click of the same link lands there again; a link of a
 * claim confirmed through another link (a repeat claim's e-mail) gets `receiptUrl: null` (the
 * receipt e-mail has it). Unknown or altered links are invalid; a pending claim's link past its
 * time is expired. A link opened on the product's store domain (`storeOrigin`, the gateway's
 * word) lands on the receipt there.
 */
export async function confirmClaimLink(
  deps: FreeClaimDeps & { pool: Pool },
  token: string,
  storeOrigin: StoreOrigin | null = null,
): Promise<{ receiptUrl: string | null }> {
  const tokenHash = hashBrowserKey(token);
  if (!tokenHash) throw freeClaimErrors.linkInvalid();
  const receipt = receiptOfLink(token);
  const result = await withTransaction(deps.pool, async (tx) => {
    const claim = await lockFreeClaimByLink(tx, tokenHash);
    if (!claim) throw freeClaimErrors.linkInvalid();
    const origin =
      storeOrigin && storeOrigin.sellerId === claim.sellerId ? storeOrigin.origin : deps.publicUrl;
    const receiptUrl = `${origin}/receipt/${receipt.token}`;
    if (claim.confirmedAt) {
      const purchase = await findPurchaseByCheckout(tx, claim.checkoutId);
      return {
        receiptUrl: purchase?.receiptTokenHash === receipt.tokenHash ? receiptUrl : null,
        recorded: false,
      };
    }
    const now = deps.now();
    if (claim.expiresAt.getTime() <= now.getTime()) throw freeClaimErrors.linkExpired();
    const locked = await lockCheckoutToSettle(tx, claim.txRef);
    if (!locked || locked.checkout.kind !== 'product') throw freeClaimErrors.linkInvalid();
    await confirmFreeClaim(tx, claim.checkoutId, now, 'email_link');
    await recordFreeClaim(tx, deps.sale, locked.checkout, receipt);
    return { receiptUrl, recorded: true };
  });
  if (result.recorded) deps.sale.onMailQueued();
  return { receiptUrl: result.receiptUrl };
}
