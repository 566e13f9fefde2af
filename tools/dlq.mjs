// `npm run dlq -- list [consumer]` shows what consumers gave up on;
// `npm run dlq -- replay <consumer>` re-delivers it (idempotently) once the cause is fixed.
// Reads NATS_URL (nats://127.0.0.1:4222) and BUS_NAMESPACE (lockdrop) like the services.
import { openDeadLetters } from '@lockdrop/bus';

const [command, consumer] = process.argv.slice(2);
if (!['list', 'replay'].includes(command) || (command === 'replay' && !consumer)) {
  console.error('usage: npm run dlq -- list [consumer] | replay <consumer>');
  process.exit(64);
}
const deadLetters = await openDeadLetters({
  url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  namespace: process.env.BUS_NAMESPACE ?? 'lockdrop',
});
try {
  const letters =
    command === 'list' ? await deadLetters.list(consumer) : await deadLetters.replay(consumer);
  for (const letter of letters) {
    console.log(
      [
        letter.storedAt.toISOString(),
        letter.consumer,
        letter.eventType ?? '(unreadable)',
        letter.eventId ?? '-',
        `after ${letter.deliveries} deliveries: ${letter.reason}`,
      ].join('  '),
    );
  }
  console.log(
    command === 'list'
      ? `${letters.length} dead letter(s)`
      : `${letters.length} event(s) re-delivered to ${consumer}`,
  );
} finally {
  await deadLetters.close();
}
