import type { Pool } from '@lockdrop/db';
import { openSenderDatabase } from './support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMailer,
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
