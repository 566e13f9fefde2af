import { withTransaction, type Migration, type Pool, type Queryable, isOutage } from '@lockdrop/db';
import type { Mailer, MailMessage } from './types.js';

/**
 * The mail outbox lives in the sending service's own schema (run these with its migrations):
 * an e-mail is queued in the same transaction as the change that causes it (the token it
 * carries), so a committed token always gets its e-mail and a rolled-back one never does.
 */
export const mailOutboxMigrations: Migration[] = [
  {
    id: '0000_mail_01_outbox',
    sql: `
      CREATE TABLE mail_outbox (
        id bigserial PRIMARY KEY,
        message jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at);
    `,
  },
  {
    id: '0000_mail_02_bulk',
    sql: `
      -- Mail to many (announcements) is released at a set rate, so it never holds up the rest.
      ALTER TABLE mail_outbox ADD COLUMN bulk boolean NOT NULL DEFAULT false;
      CREATE INDEX mail_outbox_bulk_idx ON mail_outbox (next_attempt_at) WHERE bulk AND attempts = 0;
    `,
  },
];

export async function enqueueMail(tx: Queryable, message: MailMessage): Promise<void> {
  await tx.query('INSERT INTO mail_outbox (message) VALUES ($1)', [JSON.stringify(message)]);
}

/** Queues several transactional e-mails in one statement (a batch of receipts), due at once. */
export async function enqueueMails(tx: Queryable, messages: MailMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.query('INSERT INTO mail_outbox (message) SELECT unnest($1::jsonb[])', [
    messages.map((message) => JSON.stringify(message)),
  ]);
}

/**
 * Queues mail to many recipients, released `perMinute` at most across every bulk send of this
 * service: each message is due one interval after the last bulk message still waiting, so
 * receipts and sign-in links queued meanwhile go out at once. Returns when the last is due.
 */
export async function enqueueBulkMail(
  tx: Queryable,
  messages: MailMessage[],
  { perMinute }: { perMinute: number },
): Promise<Date | null> {
  if (messages.length === 0) return null;
  // One bulk schedule per schema: concurrent announcements queue behind each other, not beside.
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.mail_outbox.bulk'))`);
  const { rows } = await tx.query<{ last: Date }>(
    `WITH start AS (
       SELECT greatest(now(), max(next_attempt_at) + $2 * interval '1 millisecond') AS at
       FROM mail_outbox WHERE bulk AND attempts = 0
     )
     INSERT INTO mail_outbox (message, bulk, next_attempt_at)
     SELECT message, true, start.at + (position - 1) * $2 * interval '1 millisecond'
     FROM unnest($1::jsonb[]) WITH ORDINALITY AS queued (message, position), start
     RETURNING next_attempt_at AS last`,
    [messages.map((message) => JSON.stringify(message)), 60_000 / perMinute],
  );
  return rows.reduce<Date | null>(
    (last, row) => (!last || row.last > last ? row.last : last),
    null,
  );
}

interface Logger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface MailRelay {
  /** Starts a pass now instead of at the next poll (call after committing a queued e-mail). */
  wake(): void;
  /** Delivers every due message once; the background loop calls this too. */
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

const BATCH_SIZE = 20;
/** Messages of a batch in flight at once (the SMTP mailer keeps up to eight connections). */
const SEND_LANES = 8;
const MAX_ATTEMPTS = 8;
const POLL_MS = 2_000;

/**
 * Sends queued e-mails and deletes each once the mailer accepted it, so links with raw tokens
 * do not stay at rest. Rows are claimed FOR UPDATE SKIP LOCKED so replicas never send one
 * twice at the same time; a crash between send and delete re-sends (at-least-once, which is
 * right for e-mail). Failures back off exponentially and stop after MAX_ATTEMPTS, kept for
 * inspection with their last error.
 */
export function startMailRelay({
  pool,
  mailer,
  logger,
}: {
  pool: Pool;
  mailer: Mailer;
  logger: Logger;
}): MailRelay {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const anyDue = async () => {
    const { rows } = await pool.query<{ due: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM mail_outbox WHERE next_attempt_at <= now() AND attempts < $1) AS due',
      [MAX_ATTEMPTS],
    );
    return rows[0]!.due;
  };

  // The idle poll is a plain query: a transaction (a checked-out client) is opened only when there is mail.
  /** One claimed batch: how many rows it claimed, how many of them went out. */
  const deliverBatch = async () =>
    withTransaction(pool, async (tx) => {
      const { rows } = await tx.query<{ id: string; message: MailMessage; attempts: number }>(
        `SELECT id, message, attempts FROM mail_outbox
         WHERE next_attempt_at <= now() AND attempts < $1
         ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [MAX_ATTEMPTS, BATCH_SIZE],
      );
      // A few at a time: an SMTP mailer spreads them over its pooled connections, one after
      // another each waited a round trip per message on the previous one.
      const sent: string[] = [];
      const failed: Array<{ row: (typeof rows)[number]; error: unknown }> = [];
      let next = 0;
      const lane = async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          try {
            await mailer.send(row.message);
            sent.push(row.id);
          } catch (error) {
            failed.push({ row, error });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(SEND_LANES, rows.length) }, lane));
      for (const { row, error } of failed) {
        const reason = error instanceof Error ? error.message : String(error);
        const log = row.attempts + 1 >= MAX_ATTEMPTS ? logger.error : logger.warn;
        log.call(logger, { mailId: row.id, to: row.message.to, err: reason }, 'e-mail not sent');
        await tx.query(
          `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2,
             next_attempt_at = now() + make_interval(secs => power(2, attempts + 1) * 5)
           WHERE id = $1`,
          [row.id, reason],
        );
      }
      if (sent.length > 0)
        await tx.query('DELETE FROM mail_outbox WHERE id = ANY($1::bigint[])', [sent]);
      return { claimed: rows.length, sent: sent.length };
    });

  /**
   * `queued`: a commit that queued mail asked for this pass, so there is some to claim. Only the
   * idle poll asks first: at a steady 300 payments a second the question, walking the due index
   * past the entries of rows sent and deleted moments before, had cost Postgres 1.8 ms a pass.
   */
  const deliverDue = async ({ queued = false }: { queued?: boolean } = {}) => {
    if (!queued && !(await anyDue())) return 0;
    let total = 0;
    for (;;) {
      const { claimed, sent } = await deliverBatch();
      total += sent;
      if (claimed < BATCH_SIZE || stopped) return total;
    }
  };

  // A wake while a pass is waiting to start is already answered by that pass: a burst of
  // committed e-mails (one wake each) costs a few passes, not one query per e-mail.
  let passQueued = false;
  let mailQueued = false;
  const pass = ({ woken }: { woken: boolean }) => {
    clearTimeout(timer);
    if (woken) mailQueued = true;
    if (passQueued) return;
    passQueued = true;
    running = running
      .then(() => {
        passQueued = false;
        const queued = mailQueued;
        mailQueued = false;
        return deliverDue({ queued });
      })
      .catch((error: unknown) =>
        logger[isOutage(error) ? 'warn' : 'error'](
          { err: error instanceof Error ? error.message : error },
          'mail relay pass failed',
        ),
      )
      .finally(() => {
        clearTimeout(timer);
        if (!stopped) timer = setTimeout(() => pass({ woken: false }), POLL_MS);
      });
  };
  pass({ woken: false });

  return {
    wake: () => {
      if (!stopped) pass({ woken: true });
    },
    deliverDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
