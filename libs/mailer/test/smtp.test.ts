import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Pool } from '@lockdrop/db';
import { openSenderDatabase } from './support.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMailer,
  dkimFromEnv,
  enqueueMail,
  renderEmail,
  unsubscribeHeaders,
  startMailRelay,
} from '../src/index.js';

// Mail through a real SMTP server (npm smtp-server) that keeps what it receives, refuses one
// recipient like a real server refuses an unknown mailbox, and can be down.
let pool: Pool;
const silent = { warn: () => undefined, error: () => undefined };

interface Received {
  raw: string;
  mail: ParsedMail;
}

async function startSmtp(port = 0) {
  const received: Received[] = [];
  const connections = { count: 0 };
  const server = new SMTPServer({
    authOptional: true,
    onConnect(_session, callback) {
      connections.count += 1;
      callback();
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused@'))
        return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ raw, mail: await simpleParser(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let closeSender: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ pool, close: closeSender } = await openSenderDatabase());
});
afterAll(() => closeSender?.());

const receipt = renderEmail({
  subject: 'Your receipt for Lagos Night Drums',
  heading: 'Thanks for your purchase',
  paragraphs: ['You paid $12.00 for Lagos Night Drums.'],
  action: { label: 'Download your file', url: 'https://lockdrop.test/receipt/tok_123' },
});

describe('e-mail through SMTP', () => {
  it('arrives with From, Reply-To, a text and an HTML part, and working links', async () => {
    const smtp = await startSmtp();
    const mailer = await createMailer({
      smtpUrl: smtp.url,
      from: 'Lockdrop <receipts@lockdrop.test>',
      pool,
    });
    try {
      await mailer.send({
        to: 'ada@example.com',
        replyTo: 'seller@example.com',
        subject: receipt.subject,
        text: receipt.text,
        html: receipt.html,
        headers: unsubscribeHeaders('https://lockdrop.test/api/buyer-updates/tok_9/unsubscribe'),
      });
    } finally {
      await mailer.close();
      await smtp.stop();
    }
    expect(smtp.received).toHaveLength(1);
    const { raw, mail } = smtp.received[0]!;
    expect(mail.from?.value).toEqual([{ name: 'Lockdrop', address: 'receipts@lockdrop.test' }]);
    expect(mail.replyTo?.value[0]?.address).toBe('seller@example.com');
    expect(mail.subject).toBe('Your receipt for Lagos Night Drums');
    expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.text).toContain('Download your file: https://lockdrop.test/receipt/tok_123');
    expect(mail.html).toContain('<a href="https://lockdrop.test/receipt/tok_123"');
    expect(mail.headers.get('dkim-signature')).toBeUndefined();
    // RFC 8058: the header pair mail apps need to offer their own one-click Unsubscribe.
    const unfolded = raw.replace(/\r\n[ \t]+/g, ' ');
    expect(unfolded).toContain(
      'List-Unsubscribe: <https://lockdrop.test/api/buyer-updates/tok_9/unsubscribe>',
    );
    expect(unfolded).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  it('sends one message after another over one kept connection, unless the URL says pool=false', async () => {
    const smtp = await startSmtp();
    const connectionsFor = async (smtpUrl: string) => {
      const before = smtp.connections.count;
      const mailer = await createMailer({ smtpUrl, from: 'receipts@lockdrop.test', pool });
      try {
        for (const n of [1, 2, 3, 4])
          await mailer.send({ to: `buyer${n}@example.com`, ...receipt });
      } finally {
        await mailer.close();
      }
      return smtp.connections.count - before;
    };
    try {
      expect(await connectionsFor(smtp.url)).toBe(1);
      expect(await connectionsFor(`${smtp.url}?pool=false`)).toBe(4);
    } finally {
      await smtp.stop();
    }
    expect(smtp.received).toHaveLength(8);
  });

  it('is signed with DKIM when the three SMTP_DKIM_* settings are given', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dkim = dkimFromEnv({
      SMTP_DKIM_DOMAIN: 'lockdrop.test',
      SMTP_DKIM_SELECTOR: 'mail2026',
      // As an env file carries it: one line, literal \n.
      SMTP_DKIM_PRIVATE_KEY: pem.replaceAll('\n', '\\n'),
    });
    expect(dkimFromEnv({ SMTP_DKIM_DOMAIN: 'lockdrop.test' })).toBeUndefined();
    const smtp = await startSmtp();
    const mailer = await createMailer({
      smtpUrl: smtp.url,
      from: 'receipts@lockdrop.test',
      pool,
      dkim,
    });
    try {
      await mailer.send({ to: 'ada@example.com', ...receipt });
    } finally {
      await mailer.close();
      await smtp.stop();
    }
    const { raw } = smtp.received[0]!;
    // The header as it travels (folded over several lines).
    const signature = /^DKIM-Signature:[^\n]*(?:\n[ \t][^\n]*)*/im.exec(raw)?.[0] ?? '';
    expect(signature).toMatch(/\bd=lockdrop\.test\b/);
    expect(signature).toMatch(/\bs=mail2026\b/);
    expect(signature).toMatch(/\ba=rsa-sha256\b/);
    expect(signature).toMatch(/\bbh=[A-Za-z0-9+/=]+/);
  });

  it('keeps a message queued while the server is down or refuses the recipient, and sends it when it can', async () => {
    // A port with no server on it yet.
    const probe = await startSmtp();
    const { port, url } = probe;
    await probe.stop();
    const mailer = await createMailer({ smtpUrl: url, from: 'receipts@lockdrop.test', pool });
    await enqueueMail(pool, { to: 'ada@example.com', ...receipt });
    await enqueueMail(pool, { to: 'refused@example.com', ...receipt });
    const relay = startMailRelay({ pool, mailer, logger: silent });
    const queued = async () =>
      (
        await pool.query<{ attempts: number; last_error: string; message: { to: string } }>(
          'SELECT attempts, last_error, message FROM mail_outbox ORDER BY id',
        )
      ).rows;
    try {
      await expect
        .poll(async () => (await queued()).map((row) => row.attempts), { timeout: 5_000 })
        .toEqual([1, 1]);
      expect((await queued())[0]!.last_error).toMatch(/ECONNREFUSED/);

      const smtp = await startSmtp(port);
      try {
        await pool.query('UPDATE mail_outbox SET next_attempt_at = now()');
        relay.wake();
        await expect
          .poll(async () => (await queued()).map((row) => row.attempts), { timeout: 5_000 })
          .toEqual([2]);
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0]!.raw).toMatch(/^To: ada@example\.com/m);
        const [refused] = await queued();
        expect(refused!.message.to).toBe('refused@example.com');
        expect(refused!.last_error).toMatch(/550/);
      } finally {
        await relay.stop();
        await mailer.close();
        await smtp.stop();
      }
    } finally {
      await relay.stop();
      await mailer.close();
    }
  });
});
