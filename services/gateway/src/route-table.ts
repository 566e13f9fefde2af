import type { GatewayConfig } from './config.js';

export type Upstream = 'identity' | 'catalog' | 'payments' | 'delivery' | 'analytics' | 'worker';

export interface ProxyRoute {
  prefix: string;
  upstream: Upstream;
  /** Sign-in, sign-up, password reset and checkout get the stricter per-IP budget. */
  sensitive?: boolean;
  /** Multipart uploads stream through with the upload limit instead of the JSON one. */
  upload?: boolean;
  /** Provider notifications: their own per-address budget (http/webhook-passthrough.ts). */
  providerNotifications?: boolean;
}

/** Which service owns which public path (ARCHITECTURE §2). The first matching prefix wins. */
export const routeTable: ProxyRoute[] = [
  { prefix: '/api/auth/sign-in', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth/sign-up', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth/forgot-password', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth/reset-password', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth/resend-verification', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth/mfa/challenge', upstream: 'identity', sensitive: true },
  { prefix: '/api/auth', upstream: 'identity' },
  { prefix: '/api/profile', upstream: 'identity' },
  { prefix: '/api/contact', upstream: 'identity', sensitive: true },
  { prefix: '/.well-known', upstream: 'identity' },
  { prefix: '/dev/mailbox', upstream: 'identity' },
  { prefix: '/api/products', upstream: 'catalog' },
  { prefix: '/api/currencies', upstream: 'catalog' },
  { prefix: '/api/exchange-rates', upstream: 'catalog' },
  { prefix: '/api/brand-logos', upstream: 'delivery', upload: true },
  { prefix: '/api/avatars', upstream: 'delivery', upload: true },
  { prefix: '/api/brand', upstream: 'catalog' },
  { prefix: '/api/stores', upstream: 'catalog' },
  // A store's custom domain (issue 28): the settings and "Verify now".
  { prefix: '/api/domain', upstream: 'catalog' },
  { prefix: '/api/uploads', upstream: 'delivery', upload: true },
  { prefix: '/api/previews', upstream: 'delivery' },
  { prefix: '/api/downloads', upstream: 'delivery' },
  { prefix: '/dl', upstream: 'delivery' },
  // The quote too: trying codes one after another is how codes would be guessed.
  { prefix: '/api/checkout', upstream: 'payments', sensitive: true },
  { prefix: '/api/discount-codes', upstream: 'payments' },
  { prefix: '/api/webhooks', upstream: 'payments', providerNotifications: true },
  { prefix: '/api/purchases', upstream: 'payments' },
  // Unsubscribe tokens are bearer secrets: the per-IP budget stops guessing.
  { prefix: '/api/buyer-updates', upstream: 'payments', sensitive: true },
  // Resolving an account asks the provider who holds it: a per-IP budget stops enumeration.
  { prefix: '/api/payouts/resolve-account', upstream: 'payments', sensitive: true },
  { prefix: '/api/payouts', upstream: 'payments' },
  // A plan change opens a checkout: the same per-IP budget as /api/checkout.
  { prefix: '/api/billing/plan/change', upstream: 'payments', sensitive: true },
  { prefix: '/api/billing', upstream: 'payments' },
  { prefix: '/api/subscriptions', upstream: 'payments' },
  { prefix: '/sandbox', upstream: 'payments' },
  { prefix: '/api/analytics', upstream: 'analytics' },
  // Outgoing webhooks: the worker owns sellers' endpoints and the delivery log (ARCHITECTURE §3a).
  { prefix: '/api/webhook-endpoints', upstream: 'worker' },
  { prefix: '/api/webhook-deliveries', upstream: 'worker' },
];

export function upstreamUrls(config: GatewayConfig): Record<Upstream, string> {
  return {
    identity: config.IDENTITY_URL,
    catalog: config.CATALOG_URL,
    payments: config.PAYMENTS_URL,
    delivery: config.DELIVERY_URL,
    analytics: config.ANALYTICS_URL,
    worker: config.WORKER_URL,
  };
}
