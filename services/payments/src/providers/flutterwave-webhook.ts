import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { WebhookNotice } from './types.js';

/** Equal-time comparison of two strings of any length (hashing first hides the length too). */
function constantTimeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function single(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

export function webhookSignature(rawBody: Buffer, secretHash: string): string {
  return createHmac('sha256', secretHash).update(rawBody).digest('base64');
}

/**
 * Flutterwave's sources disagree on the scheme (payments-contract §2): v3 sends `verif-hash`
 * (the raw secret hash), v4 `flutterwave-signature` (base64 HMAC-SHA256 of the raw body). At
 * least one must be present and every one present must be right.
 */
export function authenticateFlutterwaveWebhook(
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  secretHash: string,
): boolean {
  const verifHash = single(headers['verif-hash']);
  const signature = single(headers['flutterwave-signature']);
  if (verifHash === undefined && signature === undefined) return false;
  const hashOk = verifHash === undefined || constantTimeEqual(verifHash, secretHash);
  const signatureOk =
    signature === undefined || constantTimeEqual(signature, webhookSignature(rawBody, secretHash));
  return hashOk && signatureOk;
}

const id = z.union([z.number(), z.string().min(1)]).transform(String);

const envelopeShape = z.object({
  event: z.string(),
  data: z.looseObject({
    id,
    tx_ref: z.string().optional(),
    status: z.string().optional(),
    reference: z.string().optional(),
    tx_id: id.optional(),
    transaction_id: id.optional(),
  }),
});

/** The legacy flat camelCase shape (Flutterwave/Node-v3#175): no `event`/`data` keys. */
const flatShape = z.looseObject({
  id,
  txRef: z.string(),
  status: z.string().optional(),
  'event.type': z.string().optional(),
});

/** Both shapes normalised; anything else is stored but not acted on. */
export function parseFlutterwaveWebhook(body: unknown): WebhookNotice {
  const envelope = envelopeShape.safeParse(body);
  if (envelope.success) {
    const { event, data } = envelope.data;
    const isCharge = event === 'charge.completed' && data.tx_ref !== undefined;
    return {
      eventKey: `${event}:${data.id}:${data.status ?? ''}`,
      eventType: event,
      charge: isCharge ? { transactionId: data.id, txRef: data.tx_ref! } : null,
      transfer:
        event === 'transfer.completed' && data.reference ? { reference: data.reference } : null,
      // [?] Refund and dispute notifications are not in the contract reference; these are the
      // names integrators report. Neither body is trusted as an outcome on its own: a refund
      // notice makes us ask the provider, a dispute is matched to a verified purchase.
      refund:
        event.startsWith('refund.') && (data.tx_id ?? data.transaction_id)
          ? { transactionId: (data.tx_id ?? data.transaction_id)! }
          : null,
      dispute:
        (event === 'charge.dispute' || event.startsWith('chargeback.')) &&
        (data.transaction_id ?? data.tx_id)
          ? { transactionId: (data.transaction_id ?? data.tx_id)!, status: data.status ?? '' }
          : null,
    };
  }
  const flat = flatShape.safeParse(body);
  if (flat.success) {
    const eventType = flat.data['event.type'] ?? 'charge.completed';
    return {
      eventKey: `flat:${flat.data.id}:${flat.data.status ?? ''}`,
      eventType,
      charge: { transactionId: flat.data.id, txRef: flat.data.txRef },
    };
  }
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return { eventKey: `unknown:${digest}`, eventType: 'unknown', charge: null };
}
