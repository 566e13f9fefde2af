import { createHmac } from 'node:crypto';
import type { Queryable } from '@lockdrop/db';

export interface SandboxNotification {
  txRef: string;
  /** The notification's exact bytes, as the provider signs and sends them. */
  raw: Buffer;
}

/**
 * The provider's side of a payment, for tests and benchmarks that pay at volume: each checkout
 * marked successful in the sandbox provider's own table (what Flutterwave would hold), and
 * the Flutterwave-shaped `charge.completed` notification it would send for it.
 */
export async function chargeInSandbox(
  db: Queryable,
  txRefs: string[],
): Promise<SandboxNotification[]> {
  const { rows } = await db.query(
    `UPDATE payments.sandbox_payments
     SET status = 'successful', transaction_id = nextval('payments.sandbox_transaction_ids'),
         app_fee_minor = round(amount_minor * 0.035), completed_at = now()
     WHERE tx_ref = ANY($1) RETURNING *`,
    [txRefs],
  );
  return rows.map((payment) => {
    const major = Number(payment.amount_minor) / 100;
    const raw = Buffer.from(
      JSON.stringify({
        event: 'charge.completed',
        'event.type': 'CARD_TRANSACTION',
        data: {
          id: Number(payment.transaction_id),
          tx_ref: payment.tx_ref,
          flw_ref: `SANDBOX-${payment.transaction_id}`,
          amount: major,
          currency: payment.currency,
          charged_amount: major,
          app_fee: Number(payment.app_fee_minor) / 100,
          status: 'successful',
          payment_type: 'card',
          created_at: new Date().toISOString(),
          customer: { email: payment.buyer_email },
        },
      }),
    );
    return { txRef: payment.tx_ref as string, raw };
  });
}

/** The headers a sandbox webhook carries: the shared hash and the HMAC of its bytes. */
export function sandboxWebhookHeaders(secret: string, raw: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'verif-hash': secret,
    'flutterwave-signature': createHmac('sha256', secret).update(raw).digest('base64'),
  };
}
