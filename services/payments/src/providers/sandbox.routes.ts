import { errors, type HttpServer, type ZodTypeProvider } from '@lockdrop/http';
import { formatMoney } from '@lockdrop/money';
import { z } from 'zod';
import type { Sandbox, SandboxPayment } from './sandbox.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The site's look (web/src/index.css and components/ui/button.tsx: Tailwind's slate and indigo,
 * the system font stack, rounded-2xl cards, lg buttons) for a page the SPA does not render; issue
 * 29 found it unstyled, its e-mail running off a phone. The gateway's CSP allows inline styles.
 */
const SITE_STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;padding:24px 16px;background:#f8fafc;color:#0f172a;-webkit-font-smoothing:antialiased;
font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif;line-height:1.5}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:1rem;padding:1.5rem;
box-shadow:0 1px 2px rgb(0 0 0/.05);outline:1px solid #e2e8f0}
.brand{display:flex;align-items:center;gap:12px;margin:0 0 16px;font-size:18px}
.brand img{border-radius:4px}
.test-mode{margin:0 0 8px;padding:.5rem .75rem;border-radius:.5rem;background:#fffbeb;color:#92400e;font-size:.875rem;font-weight:600}
h1{font-size:1.25rem;font-weight:700;letter-spacing:-.025em;margin:0 0 1rem;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.5rem 1rem;margin:0 0 1.25rem;font-size:.875rem}
dt{color:#475569}
dd{margin:0;font-weight:500;min-width:0;overflow-wrap:anywhere}
.ref{font-family:ui-monospace,monospace;font-size:.75rem;color:#475569}
p{font-size:.875rem;color:#334155}
form{margin:0}
button{font:inherit;cursor:pointer;width:100%;border:0;border-radius:.5rem;padding:.75rem 1.25rem;font-weight:600;
background:#fff;color:#0f172a;box-shadow:inset 0 0 0 1px #cbd5e1}
button:hover{background:#f8fafc}
button.primary{background:#4f46e5;color:#fff;box-shadow:0 1px 2px rgb(0 0 0/.05);font-size:1rem}
button.primary:hover{background:#6366f1}
button:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}
.others{display:flex;gap:.75rem;margin-top:.75rem}
.others form{flex:1}
footer{text-align:center;font-size:12px;color:#64748b;margin-top:16px}
`;

/**
 * The page's own policy (it replaces the gateway's on the way out): as strict, except that its
 * forms may end on the checkout's way back. A form's redirect is held to `form-action` too, and
 * a store's custom domain (issue 28) is another origin, as it is after a real provider's page.
 */
function sandboxPagePolicy(redirectUrl: string): string {
  return [
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${new URL(redirectUrl).origin}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Plain HTML forms posting to same-origin paths: the gateway's CSP (`script-src 'self'`,
 * `form-action 'self'`) allows exactly this and no inline script is needed.
 */
function checkoutPage(payment: SandboxPayment): string {
  const action = (outcome: string) =>
    `/sandbox/checkout/${encodeURIComponent(payment.txRef)}/${outcome}`;
  const done = payment.status === 'successful';
  const awaitingTransfer = payment.status === 'pending';
  const price = formatMoney(payment.amountMinor, payment.currency);
  const per =
    payment.billingInterval === 'yearly'
      ? ' per year'
      : payment.billingInterval
        ? ' per month'
        : '';
  const payLabel = payment.billingInterval ? `Subscribe — ${price}${per}` : `Pay ${price}`;
  const { brand } = payment;
  // A seller's brand (Pro and up) heads the page as Flutterwave shows `customizations`.
  const header = brand
    ? `<header data-testid="store-brand" class="brand">${
        brand.logoUrl
          ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="40" height="40">`
          : ''
      }<strong>${escapeHtml(brand.name)}</strong></header>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · ${escapeHtml(brand?.name ?? 'Lockdrop')}</title>
<style>${SITE_STYLE}</style></head>
<body>
<main>
${header}
<p class="test-mode">Sandbox — test mode, no real money moves</p>
<h1>Pay for ${escapeHtml(payment.title)}</h1>
<dl>
<dt>Product</dt><dd data-testid="product">${escapeHtml(payment.title)}</dd>
<dt>Amount</dt><dd data-testid="amount">${escapeHtml(price + per)}</dd>
<dt>E-mail</dt><dd data-testid="email">${escapeHtml(payment.buyerEmail)}</dd>
<dt>Reference</dt><dd class="ref">${escapeHtml(payment.txRef)}</dd>
</dl>
${payment.billingInterval ? `<p>A subscription: this card is charged again${per}, until cancelled.</p>` : ''}
${done ? '<p>This payment is complete.</p>' : ''}
${awaitingTransfer ? '<p data-testid="awaiting-transfer">Waiting for your bank transfer. Nothing is paid until it arrives.</p>' : ''}
<form method="post" action="${action('pay')}"><button type="submit" class="primary">${escapeHtml(awaitingTransfer ? 'Transfer arrives' : payLabel)}</button></form>
${
  done
    ? ''
    : awaitingTransfer
      ? `<div class="others"><form method="post" action="${action('fail')}"><button type="submit">Transfer fails</button></form></div>`
      : `<div class="others"><form method="post" action="${action('transfer')}"><button type="submit">Bank transfer</button></form></div>
<div class="others"><form method="post" action="${action('fail')}"><button type="submit">Fail</button></form>
<form method="post" action="${action('cancel')}"><button type="submit">Cancel</button></form></div>`
}
</main>
${brand ? '<footer>Sold with Lockdrop</footer>' : ''}
</body></html>`;
}

/** The sandbox provider's hosted checkout page (only registered when the sandbox is the provider). */
export async function sandboxRoutes(app: HttpServer, sandbox: Sandbox): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // Browsers post forms url-encoded; these forms carry no fields.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    const params = z.object({ txRef: z.string().min(1).max(100) });
    const notFound = () => errors.notFound('checkout_not_found', 'This checkout does not exist');

    scope.get(
      '/sandbox/checkout/:txRef',
      { schema: { hide: true, params } },
      async (request, reply) => {
        const payment = await sandbox.find(request.params.txRef);
        if (!payment) throw notFound();
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', sandboxPagePolicy(payment.redirectUrl))
          .send(checkoutPage(payment));
      },
    );

    scope.post(
      '/sandbox/checkout/:txRef/:outcome',
      {
        schema: {
          hide: true,
          params: params.extend({ outcome: z.enum(['pay', 'fail', 'cancel', 'transfer']) }),
        },
      },
      async (request, reply) => {
        const result = await sandbox.complete(request.params.txRef, request.params.outcome);
        if (!result) throw notFound();
        // 303: the browser follows with a GET, exactly as after a provider's hosted page.
        return reply.redirect(result.redirectTo, 303);
      },
    );
  });
}
