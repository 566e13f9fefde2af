import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of
 * 32 random bytes; the key is the decoded bytes, never the string. Polar's receivers broke when
 * the string itself keyed the HMAC — tests verify with the spec's own library to hold us to it.
 */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signPayload(
  secret: string,
  message: { id: string; timestamp: number; body: string },
): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${message.id}.${message.timestamp}.${message.body}`)
    .digest('base64');
  return `v1,${signature}`;
}

/** The three headers of one attempt; during a rotation every live secret signs (space-separated). */
export function webhookHeaders(
  secrets: string[],
  message: { id: string; timestamp: number; body: string },
): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': secrets.map((secret) => signPayload(secret, message)).join(' '),
  };
}

/** What an endpoint's sealed signing secret is bound to: its own row (see libs/auth SecretBox). */
export const endpointSealContext = (endpoint: { id: string; seller_id: string }): string =>
  `webhook-endpoint:${endpoint.seller_id}:${endpoint.id}`;
