import { escapeHtml } from './html.js';

export interface EmailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** The one button of the message; its URL is also written out for plain-text readers. */
  action?: { label: string; url: string };
  /** Smaller print under the button, e.g. why the reader got this e-mail. */
  footnote?: string;
  /** A bulk e-mail's way out, written under the footnote (send `unsubscribeHeaders` with it). */
  unsubscribeUrl?: string;
  /**
   * A seller's brand (Pro and up) on a buyer's e-mail: their name and logo head the message and
   * their accent colour the button; Lockdrop keeps one "Sold with Lockdrop" line at the foot.
   * `logoUrl` must be absolute (mail clients have no base URL).
   */
  brand?: { name: string; logoUrl: string | null; accentColour: string | null } | null;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const BRAND = 'Lockdrop';
const SIGNATURE = 'Lockdrop · Sell files behind a secure payment link · Lagos, Nigeria';
const SOLD_WITH = 'Sold with Lockdrop';
const DEFAULT_ACCENT = '#4f46e5';

function headerRow(brand: EmailContent['brand']): string {
  if (!brand)
    return `<tr><td style="background:#111827;padding:16px 24px;color:#ffffff;font-size:20px;font-weight:700">🔒 ${BRAND}</td></tr>`;
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="40" height="40" style="vertical-align:middle;margin-right:12px;border-radius:4px">`
    : '';
  return `<tr><td style="background:#ffffff;border-top:4px solid ${escapeHtml(brand.accentColour ?? '#111827')};border-bottom:1px solid #e5e7eb;padding:16px 24px;color:#111827;font-size:20px;font-weight:700">${logo}${escapeHtml(brand.name)}</td></tr>`;
}

/**
 * The same message as plain text and as branded HTML (inline styles only: mail clients drop the
 * rest). The card is at most 560 px and as wide as a phone below that, long words and addresses
 * wrap (issue 29: the e-mail fits a phone).
 */
export function renderEmail(content: EmailContent): RenderedEmail {
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.footnote ? [content.footnote, ''] : []),
    ...(content.unsubscribeUrl ? [`Unsubscribe: ${content.unsubscribeUrl}`, ''] : []),
    '—',
    content.brand ? `${content.brand.name} · ${SOLD_WITH}` : SIGNATURE,
  ].join('\n');
  const accent = content.brand?.accentColour ?? DEFAULT_ACCENT;

  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:${escapeHtml(accent)};color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this link into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:${escapeHtml(accent)};word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0"><tr><td align="center" style="padding:0 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
${headerRow(content.brand)}
<tr><td style="padding:24px;overflow-wrap:anywhere;word-break:break-word">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((paragraph) => `<p style="font-size:15px;line-height:1.5;margin:0 0 12px">${escapeHtml(paragraph)}</p>`).join('\n')}
${button}
${content.footnote ? `<p style="font-size:13px;color:#6b7280;margin-top:24px">${escapeHtml(content.footnote)}</p>` : ''}
${content.unsubscribeUrl ? `<p style="font-size:13px;color:#6b7280"><a href="${escapeHtml(content.unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a></p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;background:#f9fafb;font-size:12px;color:#6b7280">${escapeHtml(content.brand ? SOLD_WITH : SIGNATURE)}</td></tr>
</table></td></tr></table>
</body></html>`;
  return { subject: content.subject, text, html };
}

/**
 * RFC 2369 and RFC 8058 header fields: mail apps show their own Unsubscribe button and POST
 * `List-Unsubscribe=One-Click` to `oneClickUrl`, which must act on that POST alone.
 */
export function unsubscribeHeaders(oneClickUrl: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${oneClickUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
