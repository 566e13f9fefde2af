import { errors, type HttpServer, type ZodTypeProvider } from '@lockdrop/http';
import { formatMoney } from '@lockdrop/money';
import { z } from 'zod';
import type { Sandbox, SandboxPayment } from './sandbox.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Plain HTML forms posting to same-origin paths: the gateway's CSP (`script-src 'self'`,
 * `form-action 'self'`) allows exactly this and no inline script is needed.
 */
function checkoutPage(payment: SandboxPayment): string {
  const action = (outcome: string) =>
    `/sandbox/checkout/${encodeURIComponent(payment.txRef)}/${outcome}`;
  const done = payment.status === 'successful';
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
    ? `<header data-testid="store-brand" style="display:flex;align-items:center;gap:12px;margin:0 0 16px">${
        brand.logoUrl
          ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="40" height="40" style="border-radius:4px">`
          : ''
      }<strong style="font-size:18px">${escapeHtml(brand.name)}</strong></header>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · ${escapeHtml(brand?.name ?? 'Lockdrop')}</title></head>
<body style="font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:32px 16px">
<main style="max-width:440px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
${header}
<p style="margin:0 0 8px;color:#b45309;font-weight:600">Sandbox — test mode, no real money moves</p>
<h1 style="font-size:20px;margin:0 0 16px">Pay for ${escapeHtml(payment.title)}</h1>
<dl>
<dt>Product</dt><dd data-testid="product">${escapeHtml(payment.title)}</dd>
<dt>Amount</dt><dd data-testid="amount">${escapeHtml(price + per)}</dd>
<dt>E-mail</dt><dd data-testid="email">${escapeHtml(payment.buyerEmail)}</dd>
<dt>Reference</dt><dd>${escapeHtml(payment.txRef)}</dd>
</dl>
${payment.billingInterval ? `<p>A subscription: this card is charged again${per}, until cancelled.</p>` : ''}
${done ? '<p>This payment is complete.</p>' : ''}
<form method="post" action="${action('pay')}"><button type="submit">${escapeHtml(payLabel)}</button></form>
${
  done
    ? ''
    : `<form method="post" action="${action('fail')}"><button type="submit">Fail</button></form>
<form method="post" action="${action('cancel')}"><button type="submit">Cancel</button></form>`
}
</main>
${brand ? '<footer style="text-align:center;font-size:12px;color:#6b7280;margin-top:16px">Sold with Lockdrop</footer>' : ''}
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
          .send(checkoutPage(payment));
      },
    );

    scope.post(
      '/sandbox/checkout/:txRef/:outcome',
      {
        schema: {
          hide: true,
          params: params.extend({ outcome: z.enum(['pay', 'fail', 'cancel']) }),
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
