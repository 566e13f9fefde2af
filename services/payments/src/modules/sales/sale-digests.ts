import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { startRepeatingPass, type RepeatingPass } from '@lockdrop/service';
import { enqueueMails, renderEmail, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';
import { findSellersForSales, TEST_SALE_NOTICE } from './sale-emails.js';

/** Product titles a window keeps for its e-mail to name (it names three, or says how many). */
const TITLES_KEPT = 10;
const DUE_BATCH = 100;

/**
 * What a recorded sale adds to its seller's window (0170_sale_digests): `sale` null when the sale
 * was e-mailed on its own and opens the window.
 */
export interface SaleDigestEntry {
  sellerId: string;
  testMode: boolean;
  windowEndsAt: Date;
  sale: {
    productTitle: string;
    currency: string;
    earningsMinor: number;
    free: boolean;
    renewal: boolean;
  } | null;
}

/**
 * Opens the windows and counts the sales of a batch, one statement for every seller in it; the
 * last statement of a settlement, so the seller's row is locked only until the commit. A window
 * already open keeps its end; two batches that both opened one add up.
 */
export async function recordSaleDigests(tx: Queryable, entries: SaleDigestEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const bySeller = new Map<
    string,
    {
      sellerId: string;
      testMode: boolean;
      windowEndsAt: Date;
      sales: number;
      freeClaims: number;
      renewals: number;
      earnings: Record<string, number>;
      titles: Set<string>;
    }
  >();
  for (const entry of entries) {
    const key = `${entry.sellerId}:${entry.testMode}`;
    let row = bySeller.get(key);
    if (!row) {
      row = {
        sellerId: entry.sellerId,
        testMode: entry.testMode,
        windowEndsAt: entry.windowEndsAt,
        sales: 0,
        freeClaims: 0,
        renewals: 0,
        earnings: {},
        titles: new Set(),
      };
      bySeller.set(key, row);
    }
    const { sale } = entry;
    if (!sale) continue;
    row.sales += 1;
    if (sale.free) row.freeClaims += 1;
    if (sale.renewal) row.renewals += 1;
    if (sale.earningsMinor > 0)
      row.earnings[sale.currency] = (row.earnings[sale.currency] ?? 0) + sale.earningsMinor;
    if (row.titles.size < TITLES_KEPT) row.titles.add(sale.productTitle);
  }
  const rows = [...bySeller.values()];
  await tx.query(
    `INSERT INTO sale_digests AS d
       (seller_id, test_mode, window_ends_at, sales, free_claims, renewals, earnings, product_titles)
     SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::int[], $5::int[],
       $6::int[], $7::jsonb[], $8::jsonb[])
     ON CONFLICT (seller_id, test_mode) DO UPDATE SET
       sales = d.sales + EXCLUDED.sales,
       free_claims = d.free_claims + EXCLUDED.free_claims,
       renewals = d.renewals + EXCLUDED.renewals,
       earnings = (
         SELECT coalesce(jsonb_object_agg(currency, total), '{}'::jsonb)
         FROM (SELECT key AS currency, sum(value::bigint) AS total
               FROM (SELECT * FROM jsonb_each_text(d.earnings)
                     UNION ALL SELECT * FROM jsonb_each_text(EXCLUDED.earnings)) AS amounts
               GROUP BY key) AS totals),
       product_titles = (
         SELECT coalesce(jsonb_agg(title), '[]'::jsonb)
         FROM (SELECT DISTINCT title
               FROM jsonb_array_elements_text(d.product_titles || EXCLUDED.product_titles) AS t (title)
               LIMIT ${TITLES_KEPT}) AS titles)`,
    [
      rows.map((row) => row.sellerId),
      rows.map((row) => row.testMode),
      rows.map((row) => row.windowEndsAt),
      rows.map((row) => row.sales),
      rows.map((row) => row.freeClaims),
      rows.map((row) => row.renewals),
      rows.map((row) => JSON.stringify(row.earnings)),
      rows.map((row) => JSON.stringify([...row.titles])),
    ],
  );
}

interface DueDigest {
  sellerId: string;
  testMode: boolean;
  sales: number;
  freeClaims: number;
  renewals: number;
  earnings: Record<string, string>;
  productTitles: string[];
}

export interface SaleDigestDeps {
  pool: Pool;
  publicUrl: string;
  /** How long a window stays open after the e-mail that opened it. */
  windowSeconds: number;
  now: () => Date;
  onMailQueued: () => void;
}

/**
 * Ends the windows that are due: one counting sales is e-mailed (to the seller's address and
 * setting as they are now) and starts the next window, as sales are still coming; one that
 * counted none closes, so the seller's next sale is e-mailed on its own. Rows are claimed
 * `FOR UPDATE SKIP LOCKED`, so replicas never send one twice. Returns how many windows ended.
 */
export async function sendDueSaleDigests(deps: SaleDigestDeps): Promise<number> {
  const outcome = await withTransaction(deps.pool, async (tx) => {
    const now = deps.now();
    const { rows } = await tx.query<DueDigest>(
      `SELECT seller_id AS "sellerId", test_mode AS "testMode", sales, free_claims AS "freeClaims",
              renewals, earnings, product_titles AS "productTitles"
       FROM sale_digests WHERE window_ends_at <= $1
       ORDER BY window_ends_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, DUE_BATCH],
    );
    if (rows.length === 0) return { ended: 0, queued: 0 };
    const [quiet, counted] = [rows.filter((r) => r.sales === 0), rows.filter((r) => r.sales > 0)];
    if (quiet.length > 0)
      await tx.query(
        `DELETE FROM sale_digests d USING unnest($1::uuid[], $2::boolean[]) AS q (seller_id, test_mode)
         WHERE d.seller_id = q.seller_id AND d.test_mode = q.test_mode`,
        [quiet.map((r) => r.sellerId), quiet.map((r) => r.testMode)],
      );
    if (counted.length === 0) return { ended: rows.length, queued: 0 };
    await tx.query(
      `UPDATE sale_digests d SET sales = 0, free_claims = 0, renewals = 0, earnings = '{}',
         product_titles = '[]', window_ends_at = $3
       FROM unnest($1::uuid[], $2::boolean[]) AS c (seller_id, test_mode)
       WHERE d.seller_id = c.seller_id AND d.test_mode = c.test_mode`,
      [
        counted.map((r) => r.sellerId),
        counted.map((r) => r.testMode),
        new Date(now.getTime() + deps.windowSeconds * 1000),
      ],
    );
    const sellers = await findSellersForSales(
      tx,
      counted.map((r) => r.sellerId),
    );
    const mails: MailMessage[] = [];
    for (const digest of counted) {
      const seller = sellers.get(digest.sellerId);
      if (!seller?.email || !seller.saleEmails) continue;
      mails.push(saleDigestEmail(seller.email, digest, deps));
    }
    await enqueueMails(tx, mails);
    return { ended: rows.length, queued: mails.length };
  });
  if (outcome.queued > 0) deps.onMailQueued();
  return outcome.ended;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** How often a digest comes: "a minute", "every 5 minutes", "every 90 seconds". */
function cadence(seconds: number): string {
  if (seconds === 60) return 'a minute';
  if (seconds % 60 !== 0) return `every ${plural(seconds, 'second', 'seconds')}`;
  return `every ${plural(seconds / 60, 'minute', 'minutes')}`;
}

function productsInWords(titles: string[]): string {
  const quoted = titles.map((title) => `"${title}"`);
  if (quoted.length === 1) return ` of ${quoted[0]}`;
  if (quoted.length <= 3) return ` of ${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return ` across ${titles.length >= TITLES_KEPT ? `${TITLES_KEPT} or more` : titles.length} products`;
}

/** "You made N more sales": what a window counted, to the seller. */
export function saleDigestEmail(
  to: string,
  digest: Omit<DueDigest, 'sellerId'>,
  { publicUrl, windowSeconds }: Pick<SaleDigestDeps, 'publicUrl' | 'windowSeconds'>,
): MailMessage {
  const titles = digest.productTitles;
  const subjectProduct = titles.length === 1 ? `: ${titles[0]}` : '';
  const subsets = [
    digest.freeClaims > 0 ? plural(digest.freeClaims, 'free claim', 'free claims') : null,
    digest.renewals > 0
      ? plural(digest.renewals, 'subscription renewal', 'subscription renewals')
      : null,
  ].filter((part): part is string => part !== null);
  const earned = Object.entries(digest.earnings)
    .filter(([, minor]) => Number(minor) > 0)
    .map(([currency, minor]) => formatMoney(Number(minor), currency));
  return {
    to,
    ...renderEmail({
      subject: `${digest.testMode ? '[TEST] ' : ''}You made ${plural(digest.sales, 'more sale', 'more sales')}${subjectProduct}`,
      heading: digest.testMode ? 'More test sales' : 'More sales',
      paragraphs: [
        ...(digest.testMode ? [TEST_SALE_NOTICE] : []),
        `Since your last sale e-mail: ${plural(digest.sales, 'more sale', 'more sales')}${productsInWords(titles)}${subsets.length > 0 ? `, including ${subsets.join(' and ')}` : ''}.`,
        ...(earned.length > 0 && !digest.testMode
          ? [
              `You earn ${earned.join(' and ')} after fees; it is paid out once the refund window has passed.`,
            ]
          : []),
        `While sales come in quickly, we gather them into one e-mail ${cadence(windowSeconds)}.`,
      ],
      action: { label: 'See your sales', url: `${publicUrl}/dashboard/payments` },
      footnote: `You received this e-mail because you sell on Lockdrop. Turn sale e-mails off in Settings: ${publicUrl}/settings#notifications`,
    }),
  };
}

/** Ends due windows every quarter window (5 s at most), on every replica. */
export function startSaleDigests(
  deps: SaleDigestDeps & {
    logger: {
      warn(object: object, message: string): void;
      error(object: object, message: string): void;
    };
  },
): RepeatingPass {
  // Also without windows (0): rows a longer setting left are still sent.
  const intervalMs =
    deps.windowSeconds > 0 ? Math.min(5_000, Math.max(100, deps.windowSeconds * 250)) : 5_000;
  return startRepeatingPass(
    async (stopped) => {
      while ((await sendDueSaleDigests(deps)) === DUE_BATCH && !stopped());
    },
    { intervalMs, logger: deps.logger, failure: 'sale digests could not be sent; trying again' },
  );
}
