import type { Pool, PoolClient } from '@lockdrop/db';
import type { LoopTimer } from './loop-timer.js';
import { errorMessage, type Logger } from './logger.js';
import { outboxChannelSql } from './outbox.js';

const RECONNECT_DELAY_MS = 2_000;

/**
 * Holds one pooled connection LISTENing on the schema's outbox channel and turns each NOTIFY
 * into a work signal for the relay. A lost connection (database restart) is replaced after a
 * pause; meanwhile the relay's poll keeps events flowing, only a little later.
 * Resolves once `timer` is halted and the connection is given back.
 */
export async function listenForOutboxWrites(
  pool: Pool,
  timer: LoopTimer,
  logger: Logger,
): Promise<void> {
  while (!timer.halted) {
    let client: PoolClient | undefined;
    try {
      client = await pool.connect();
      await listenUntilLostOrHalted(client, timer);
    } catch (error) {
      logger.warn(
        { err: errorMessage(error) },
        'outbox listener lost its connection; the poll covers until it is back',
      );
    } finally {
      // Destroyed rather than returned: a pooled connection must not keep a LISTEN registration.
      client?.release(true);
    }
    await timer.sleep(RECONNECT_DELAY_MS, { wakeable: false });
  }
}

async function listenUntilLostOrHalted(client: PoolClient, timer: LoopTimer): Promise<void> {
  const lost = new Promise<void>((_, reject) => {
    client.on('error', reject);
    client.on('end', () => reject(new Error('listener connection ended')));
  });
  // Keeps an early failure from surfacing as an unhandled rejection before the race below.
  lost.catch(() => undefined);
  client.on('notification', () => timer.signalWork());
  const { rows } = await client.query<{ channel: string }>(`SELECT ${outboxChannelSql} AS channel`);
  await client.query(`LISTEN "${rows[0]!.channel}"`);
  // Rows committed before LISTEN took effect sent their NOTIFY to nobody.
  timer.signalWork();
  await Promise.race([lost, timer.whenHalted]);
}
