export { subscribeToPayoutEvents } from './payouts.consumer.js';
export { findPayout } from './payouts.repository.js';
export { payoutRoutes } from './payouts.routes.js';
export { newSellerRules } from './payouts.js';
export { payoutMetrics } from './payout-metrics.js';
export { createSecretBox } from '@lockdrop/auth';
