import { escapeHtml, linkify } from './html.js';
import type { StoredMail } from './mailbox.js';

/**
 * The development mailbox as one HTML page, newest first. The plain-text body is shown (links
 * made clickable) rather than the HTML body: no script and no foreign markup reaches the page,
 * so it works under the gateway's `script-src 'self'` policy.
 */
export function renderMailboxPage(messages: StoredMail[]): string {
  const items = messages
    .map(
      (
        message,
      ) => `<article style="border:1px solid #e5e7eb;border-radius:8px;padding:16px;margin:0 0 16px;background:#fff">
<h2 style="font-size:17px;margin:0 0 8px">${escapeHtml(message.subject)}</h2>
<p style="margin:0 0 8px;color:#6b7280;font-size:13px">To <strong>${escapeHtml(message.to)}</strong> · from ${escapeHtml(message.from)}${message.replyTo ? ` · reply to ${escapeHtml(message.replyTo)}` : ''} · <time datetime="${message.createdAt.toISOString()}">${message.createdAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</time></p>
<pre style="white-space:pre-wrap;word-break:break-word;font-family:inherit;margin:0">${linkify(message.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Dev mailbox · Lockdrop</title></head>
<body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f3f4f6;color:#111827;margin:0;padding:24px">
<main style="max-width:760px;margin:0 auto">
<h1 style="font-size:22px">Development mailbox</h1>
<p style="color:#6b7280">E-mails Lockdrop would have sent. No SMTP server is configured (set <code>SMTP_URL</code> to deliver for real, and this page disappears). Newest first; reload to see new mail.</p>
${items || '<p>No messages yet.</p>'}
</main></body></html>`;
}
