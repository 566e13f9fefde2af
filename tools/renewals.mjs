// `npm run renewals -- unmatched` lists provider renewals that payments could not tie to exactly one
// subscription (issue 30): they were credited to nobody and wait for an operator, who hands the
// money back or, having found whose it is, settles it by hand; `npm run renewals -- resolve <id>`
// then takes one off the list (and off /metrics' payments_renewals_unmatched_open).
// Reads DATABASE_URL (postgres://postgres@127.0.0.1:5432/lockdrop) like the services.
import pg from 'pg';

const [command, id] = process.argv.slice(2);
if (
  !['unmatched', 'resolve'].includes(command) ||
  (command === 'resolve' && !/^\d+$/.test(id ?? ''))
) {
  console.error('usage: npm run renewals -- unmatched | resolve <id>');
  process.exit(64);
}
const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
});
await client.connect();
try {
  if (command === 'resolve') {
    const { rowCount } = await client.query(
      'UPDATE payments.unmatched_renewals SET resolved_at = now() WHERE id = $1 AND resolved_at IS NULL',
      [id],
    );
    console.log(rowCount ? `renewal ${id} marked resolved` : `no open unmatched renewal ${id}`);
  } else {
    const { rows } = await client.query(
      `SELECT id, created_at, provider, transaction_id, tx_ref, provider_plan_id, customer_email,
         amount_minor, currency, candidates, reason
       FROM payments.unmatched_renewals WHERE resolved_at IS NULL ORDER BY created_at`,
    );
    for (const row of rows) {
      console.log(
        [
          `#${row.id}`,
          row.created_at.toISOString(),
          `${row.provider} transaction ${row.transaction_id} (${row.tx_ref})`,
          `${row.amount_minor} ${row.currency} minor units`,
          `plan ${row.provider_plan_id ?? '-'} buyer ${row.customer_email ?? '-'}`,
          `${row.reason}: ${row.candidates.length ? row.candidates.join(', ') : 'no subscription'}`,
        ].join('  '),
      );
    }
    console.log(`${rows.length} unmatched renewal(s)`);
  }
} finally {
  await client.end();
}
