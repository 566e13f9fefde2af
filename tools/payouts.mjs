// `npm run payouts -- unknown` lists payouts whose outcome the provider left open (issue 30):
// the money is in transit, the worker keeps asking the provider, and nothing is paid again or
// returned to the seller until the provider answers about that transfer. Look each one up in
// the provider's dashboard by its reference (the payout id) or transfer id.
//
// `npm run payouts -- reseal` seals every payout destination's details again under the first key
// of PAYOUT_ENCRYPTION_KEYS, bound to its row (issue 30): run it after prepending a new key, and
// drop the old key only once it reports no row left unreadable.
// Reads DATABASE_URL like the services (the payments schema).
import pg from 'pg';

const [command] = process.argv.slice(2);
if (!['unknown', 'reseal'].includes(command)) {
  console.error('usage: npm run payouts -- unknown | reseal');
  process.exit(64);
}
const client = new pg.Client({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
  options: '-c search_path=payments',
});
await client.connect();
if (command === 'reseal') {
  try {
    const { createSecretBox, parseSecretKeys } = await import('@lockdrop/auth');
    const { resealDestinations } =
      await import('../services/payments/src/modules/payouts/reseal.ts');
    if (!process.env.PAYOUT_ENCRYPTION_KEYS) {
      console.error('PAYOUT_ENCRYPTION_KEYS is needed: the keys payments runs with, newest first');
      process.exit(64);
    }
    const box = createSecretBox(parseSecretKeys(process.env.PAYOUT_ENCRYPTION_KEYS));
    const report = await resealDestinations(client, box);
    console.log(
      `${report.checked} destination(s) checked, ${report.resealed} sealed again under the first key`,
    );
    for (const id of report.unreadable) console.log(`unreadable with every listed key: ${id}`);
    process.exitCode = report.unreadable.length > 0 ? 1 : 0;
  } finally {
    await client.end();
  }
  process.exit();
}
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
