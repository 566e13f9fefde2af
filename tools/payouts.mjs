// `npm run payouts -- unknown` lists payouts whose outcome the provider left open (issue 30):
// the money is in transit, the worker keeps asking the provider, and nothing is paid again or
// returned to the seller until the provider answers about that transfer. Look each one up in
// the provider's dashboard by its reference (the payout id) or transfer id.
// Reads DATABASE_URL like the services (the payments schema).
import pg from 'pg';

const [command] = process.argv.slice(2);
if (command !== 'unknown') {
  console.error('usage: npm run payouts -- unknown');
  process.exit(64);
}
const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
});
await client.connect();
try {
  const { rows } = await client.query(
    `SELECT id, seller_id, status, provider, provider_transfer_id, amount_minor, currency,
            outcome_unknown_since, outcome_unknown_reason
     FROM payments.payouts
     WHERE outcome_unknown_since IS NOT NULL AND status IN ('created', 'submitted')
     ORDER BY outcome_unknown_since, id`,
  );
  for (const row of rows)
    console.log(
      [
        row.outcome_unknown_since.toISOString(),
        row.id,
        `seller ${row.seller_id}`,
        `${row.amount_minor} ${row.currency} (minor units)`,
        `${row.provider ?? '-'} transfer ${row.provider_transfer_id ?? '-'}`,
        row.outcome_unknown_reason ?? '',
      ].join('  '),
    );
  console.log(`${rows.length} payout(s) with an unknown outcome`);
} finally {
  await client.end();
}
