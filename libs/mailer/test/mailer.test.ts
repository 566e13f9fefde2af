import type { Pool } from '@lockdrop/db';
import { openSenderDatabase } from './support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMailer,
  enqueueBulkMail,
  enqueueMail,
  openMailbox,
  renderEmail,
  renderMailboxPage,
  startMailRelay,
  type Mailer,
  type MailMessage,
} from '../src/index.js';

let pool: Pool;
const silent = { warn: () => undefined, error: () => undefined };

let closeSender: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ pool, close: closeSender } = await openSenderDatabase());
});
afterAll(() => closeSender?.());

const message = (to: string, subject = 'Hello'): MailMessage => ({
  to,
  subject,
  text: `Hi ${to}`,
  html: `<p>Hi</p>`,
});

describe('renderEmail', () => {
  it('renders the same content as text and escaped, branded HTML', () => {
    const email = renderEmail({
      subject: 'Verify',
      heading: 'Welcome <Ada>',
      paragraphs: ['One & two'],
      action: { label: 'Verify e-mail', url: 'https://lockdrop.test/v?token=a&b=1' },
    });
    expect(email.text).toContain('Verify e-mail: https://lockdrop.test/v?token=a&b=1');
    expect(email.html).toContain('Welcome &lt;Ada&gt;');
    expect(email.html).toContain('One &amp; two');
    expect(email.html).toContain('href="https://lockdrop.test/v?token=a&amp;b=1"');
    expect(email.html).toContain('Lockdrop');
  });
});

describe('development mailbox', () => {
  it('stores messages and lists them newest first, per recipient', async () => {
    const mailer = await createMailer({ from: 'Lockdrop <no-reply@lockdrop.test>', pool });
    expect(mailer.kind).toBe('mailbox');
    await mailer.send(message('first@example.com', 'one'));
    await mailer.send(message('First@Example.com', 'two'));
    await mailer.send(message('other@example.com', 'three'));
    const store = await openMailbox(pool);
    expect((await store.list({ to: 'first@example.com' })).map((mail) => mail.subject)).toEqual([
      'two',
      'one',
    ]);
    expect((await store.list())[0]!.subject).toBe('three');
  });

  it('renders a page with clickable links and no script', async () => {
    const page = renderMailboxPage([
      {
        id: 1,
        from: 'a@b.c',
        to: 'x@y.z',
        subject: '<b>s</b>',
        text: 'Go to https://lockdrop.test/x?t=1 now',
        html: '',
        createdAt: new Date(),
      },
    ]);
    expect(page).toContain('<a href="https://lockdrop.test/x?t=1">');
    expect(page).toContain('&lt;b&gt;s&lt;/b&gt;');
    expect(page).not.toContain('<script');
  });

  it('is replaced by SMTP when a URL is given', async () => {
    const mailer = await createMailer({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'x@lockdrop.test',
      pool,
    });
    expect(mailer.kind).toBe('smtp');
    await mailer.close();
  });
});

/** A mailer that only notes whom it sent to. */
function recordingMailer(): { mailer: Mailer; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    mailer: {
      kind: 'mailbox',
      async send(mail) {
        sent.push(mail.to);
      },
      async close() {},
    },
  };
}

describe('mail relay', () => {
  it('delivers queued mail once and retries a failed send later', async () => {
    const sent: string[] = [];
    let failNext = true;
    const mailer: Mailer = {
      kind: 'mailbox',
      async send(mail) {
        if (mail.to === 'flaky@example.com' && failNext) {
          failNext = false;
          throw new Error('smtp down');
        }
        sent.push(mail.to);
      },
      async close() {},
    };
    await enqueueMail(pool, message('ok@example.com'));
    await enqueueMail(pool, message('flaky@example.com'));
    const relay = startMailRelay({ pool, mailer, logger: silent });
    try {
      await expect.poll(() => sent, { timeout: 5_000 }).toEqual(['ok@example.com']);
      const { rows } = await pool.query('SELECT attempts, last_error FROM mail_outbox');
      expect(rows).toEqual([{ attempts: 1, last_error: 'smtp down' }]);
      await pool.query('UPDATE mail_outbox SET next_attempt_at = now()');
      relay.wake();
      await expect
        .poll(() => sent, { timeout: 5_000 })
        .toEqual(['ok@example.com', 'flaky@example.com']);
      expect((await pool.query('SELECT 1 FROM mail_outbox')).rowCount).toBe(0);
    } finally {
      await relay.stop();
    }
  });
});

describe('mail relay under a burst', () => {
  it('sends a burst bigger than one batch in one pass, not one batch per poll', async () => {
    const { mailer, sent } = recordingMailer();
    const burst = Array.from({ length: 65 }, (_, index) => `buyer-${index}@example.com`);
    for (const to of burst) await enqueueMail(pool, message(to));
    const relay = startMailRelay({ pool, mailer, logger: silent });
    try {
      // The relay polls every 2 s; all of it going out well before then means one pass did it.
      await expect.poll(() => sent.length, { timeout: 1_500 }).toBe(burst.length);
      expect([...sent].sort()).toEqual([...burst].sort());
      expect((await pool.query('SELECT 1 FROM mail_outbox')).rowCount).toBe(0);
    } finally {
      await relay.stop();
    }
  });
});

describe('bulk mail', () => {
  it('is released at the set rate after the bulk mail already waiting, and never holds up other mail', async () => {
    await pool.query('DELETE FROM mail_outbox');
    const { mailer, sent } = recordingMailer();
    const recipients = (prefix: string) =>
      Array.from({ length: 3 }, (_, index) => message(`${prefix}-${index}@example.com`));
    // 60 a minute: one a second. A second announcement queues behind the first, not beside it.
    const lastOfFirst = await enqueueBulkMail(pool, recipients('first'), { perMinute: 60 });
    const lastOfSecond = await enqueueBulkMail(pool, recipients('second'), { perMinute: 60 });
    const { rows } = await pool.query<{ to: string; due_in_ms: number }>(
      `SELECT message->>'to' AS to,
              round(extract(epoch FROM next_attempt_at - min(next_attempt_at) OVER ()) * 1000)::int AS due_in_ms
       FROM mail_outbox ORDER BY next_attempt_at`,
    );
    expect(rows.map((row) => [row.to, row.due_in_ms])).toEqual([
      ['first-0@example.com', 0],
      ['first-1@example.com', 1000],
      ['first-2@example.com', 2000],
      ['second-0@example.com', 3000],
      ['second-1@example.com', 4000],
      ['second-2@example.com', 5000],
    ]);
    expect(lastOfSecond!.getTime() - lastOfFirst!.getTime()).toBe(3000);

    // A receipt queued after all of them is sent with the first bulk message, before the rest.
    await enqueueMail(pool, message('receipt@example.com'));
    const relay = startMailRelay({ pool, mailer, logger: silent });
    try {
      await expect
        .poll(() => sent, { timeout: 5_000 })
        .toEqual(expect.arrayContaining(['first-0@example.com', 'receipt@example.com']));
      expect(sent).not.toContain('second-2@example.com');
    } finally {
      await relay.stop();
      await pool.query('DELETE FROM mail_outbox');
    }
  });
});
