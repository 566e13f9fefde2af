import { migrate, type Migration, type Pool } from '@lockdrop/db';
import type { Mailer, MailMessage } from './types.js';

/** The development mailbox: its own schema, so every service in the database can share one page. */
const MAILBOX_SCHEMA = 'mailbox';

const mailboxMigrations: Migration[] = [
  {
    id: '0001_messages',
    sql: `
      CREATE TABLE mailbox.messages (
        id bigserial PRIMARY KEY,
        sender text NOT NULL,
        recipient text NOT NULL,
        reply_to text,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX messages_recipient_idx ON mailbox.messages (lower(recipient), id DESC);
    `,
  },
  {
    id: '0002_headers',
    sql: `ALTER TABLE mailbox.messages ADD COLUMN headers jsonb;`,
  },
];

export interface StoredMail extends MailMessage {
  id: number;
  from: string;
  createdAt: Date;
}

export interface MailboxStore {
  save(from: string, message: MailMessage): Promise<void>;
  /** Newest first; `to` narrows to one recipient (case-insensitive). */
  list(options?: { to?: string; limit?: number }): Promise<StoredMail[]>;
}

interface MessageRow {
  id: string;
  sender: string;
  recipient: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string> | null;
  created_at: Date;
}

/**
 * The mailbox schema as a shared schema of the services that send mail (libs/service): with
 * per-service database roles, an admin migrates it and grants each sender its rows.
 */
export const mailboxSchema = { schema: MAILBOX_SCHEMA, migrations: mailboxMigrations };

/** Creates (or migrates) the mailbox schema; safe to call from several services at once. */
export async function openMailbox(pool: Pool): Promise<MailboxStore> {
  await migrate(pool, MAILBOX_SCHEMA, mailboxMigrations);
  return {
    async save(from, message) {
      await pool.query(
        `INSERT INTO mailbox.messages (sender, recipient, reply_to, subject, text_body, html_body, headers)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          from,
          message.to,
          message.replyTo ?? null,
          message.subject,
          message.text,
          message.html,
          message.headers ? JSON.stringify(message.headers) : null,
        ],
      );
    },
    async list({ to, limit = 100 } = {}) {
      const { rows } = await pool.query<MessageRow>(
        `SELECT * FROM mailbox.messages
         WHERE $1::text IS NULL OR lower(recipient) = lower($1)
         ORDER BY id DESC LIMIT $2`,
        [to ?? null, limit],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        from: row.sender,
        to: row.recipient,
        ...(row.reply_to ? { replyTo: row.reply_to } : {}),
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.headers ? { headers: row.headers } : {}),
        createdAt: row.created_at,
      }));
    },
  };
}

export async function createMailboxMailer(pool: Pool, from: string): Promise<Mailer> {
  const store = await openMailbox(pool);
  return {
    kind: 'mailbox',
    send: (message) => store.save(from, message),
    async close() {},
  };
}
