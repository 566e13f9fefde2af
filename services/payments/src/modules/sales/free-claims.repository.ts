import type { Queryable } from '@lockdrop/db';

/** How a free claim's address proved it reads its mail (issue 30: free claims are no relay). */
export type FreeClaimProof = 'earlier_purchase' | 'verified_account' | 'email_link';

/**
 * A purchase whose buyer address is known to be the buyer's: a paid one, or a free claim whose
 * address proved itself. A free purchase without a confirmed claim (every claim made before
 * free claims were confirmed) proves nothing. One rule for "this address has proven itself" and
 * for who hears "Tell my buyers"; `alias` is the purchases row.
 */
export const confirmedPurchase = (alias: string) =>
  `(${alias}.provider <> 'free' OR EXISTS (
     SELECT 1 FROM free_claims fc WHERE fc.checkout_id = ${alias}.checkout_id AND fc.confirmed_at IS NOT NULL))`;

/** Whether this address has a confirmed purchase of anything (any seller, any status). */
export async function hasConfirmedPurchase(db: Queryable, buyerEmail: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM purchases p WHERE lower(p.buyer_email) = lower($1) AND ${confirmedPurchase('p')}
     ) AS found`,
    [buyerEmail],
  );
  return rows[0]!.found;
}

export async function insertFreeClaim(
  db: Queryable,
  claim: {
    checkoutId: string;
    productId: string;
    buyerEmail: string;
    createdAt: Date;
    expiresAt: Date;
    confirmedAt: Date | null;
    proof: FreeClaimProof | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO free_claims (checkout_id, product_id, buyer_email, created_at, expires_at, confirmed_at, proof)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      claim.checkoutId,
      claim.productId,
      claim.buyerEmail,
      claim.createdAt,
      claim.expiresAt,
      claim.confirmedAt,
      claim.proof,
    ],
  );
}

/** A claim waiting for its address, with its checkout's reference and its newest link's time. */
export interface PendingFreeClaim {
  checkoutId: string;
  txRef: string;
  expiresAt: Date;
  confirmedAt: Date | null;
  lastLinkAt: Date | null;
  sellerId: string;
  /** The store's domain the claim was made on (issue 28), or null. */
  storeOrigin: string | null;
}

const PENDING_COLUMNS = `fc.checkout_id AS "checkoutId", c.tx_ref AS "txRef", fc.expires_at AS "expiresAt",
  c.seller_id AS "sellerId", c.store_origin AS "storeOrigin",
  fc.confirmed_at AS "confirmedAt",
  (SELECT max(l.created_at) FROM free_claim_links l WHERE l.checkout_id = fc.checkout_id) AS "lastLinkAt"`;

/**
 * This address's unconfirmed, unexpired claim of this product, locked: a repeat claim reuses it
 * (and its cool-down) rather than starting another. The caller holds the per-e-mail lock.
 */
export async function findPendingFreeClaim(
  db: Queryable,
  productId: string,
  buyerEmail: string,
  now: Date,
): Promise<PendingFreeClaim | null> {
  const { rows } = await db.query<PendingFreeClaim>(
    `SELECT ${PENDING_COLUMNS}
     FROM free_claims fc JOIN checkouts c ON c.id = fc.checkout_id
     WHERE fc.product_id = $1 AND lower(fc.buyer_email) = lower($2)
       AND fc.confirmed_at IS NULL AND fc.expires_at > $3
     ORDER BY fc.created_at DESC LIMIT 1
     FOR UPDATE OF fc`,
    [productId, buyerEmail, now],
  );
  return rows[0] ?? null;
}

export async function insertFreeClaimLink(
  db: Queryable,
  link: { tokenHash: string; checkoutId: string; createdAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO free_claim_links (token_hash, checkout_id, created_at) VALUES ($1, $2, $3)',
    [link.tokenHash, link.checkoutId, link.createdAt],
  );
}

/** The claim an e-mailed link belongs to, locked (confirming twice at once queues). */
export async function lockFreeClaimByLink(
  db: Queryable,
  tokenHash: string,
): Promise<PendingFreeClaim | null> {
  const { rows } = await db.query<PendingFreeClaim>(
    `SELECT ${PENDING_COLUMNS}
     FROM free_claim_links link
       JOIN free_claims fc ON fc.checkout_id = link.checkout_id
       JOIN checkouts c ON c.id = fc.checkout_id
     WHERE link.token_hash = $1
     FOR UPDATE OF fc`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function confirmFreeClaim(
  db: Queryable,
  checkoutId: string,
  at: Date,
  proof: FreeClaimProof,
): Promise<void> {
  await db.query(
    `UPDATE free_claims SET confirmed_at = $2, proof = $3 WHERE checkout_id = $1 AND confirmed_at IS NULL`,
    [checkoutId, at, proof],
  );
}

/**
 * Free claims started since `since` of this product, of this seller and by this address,
 * counted under a lock per seller (which also serialises its products), so racing claims on
 * any replica queue and none passes a limit. The caller already holds the per-e-mail lock.
 */
export async function countRecentFreeClaims(
  db: Queryable,
  match: { productId: string; sellerId: string; buyerEmail: string },
  since: Date,
): Promise<{ product: Date[]; seller: Date[]; email: Date[] }> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`free-claims:${match.sellerId}`]);
  const { rows } = await db.query<{ scope: 'product' | 'seller' | 'email'; at: Date[] }>(
    `SELECT 'product' AS scope, coalesce(array_agg(created_at ORDER BY created_at), '{}') AS at
       FROM checkouts WHERE provider = 'free' AND product_id = $1 AND created_at >= $4
     UNION ALL
     SELECT 'seller', coalesce(array_agg(created_at ORDER BY created_at), '{}')
       FROM checkouts WHERE provider = 'free' AND seller_id = $2 AND created_at >= $4
     UNION ALL
     SELECT 'email', coalesce(array_agg(created_at ORDER BY created_at), '{}')
       FROM checkouts WHERE provider = 'free' AND lower(buyer_email) = lower($3) AND created_at >= $4`,
    [match.productId, match.sellerId, match.buyerEmail, since],
  );
  const of = (scope: string) => rows.find((row) => row.scope === scope)?.at ?? [];
  return { product: of('product'), seller: of('seller'), email: of('email') };
}
