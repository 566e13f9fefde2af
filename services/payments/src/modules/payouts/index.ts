export { subscribeToPayoutEvents } from './payouts.consumer.js';
export { findPayout, listPayoutsPage, type StoredPayout } from './payouts.repository.js';
export { getBalances, toPayoutView, type PayoutDeps } from './payouts.js';
export { payoutRoutes } from './payouts.routes.js';
export { newSellerRules } from './payouts.js';
export { payoutMetrics } from './payout-metrics.js';
export { createSecretBox } from '@lockdrop/auth';
export { resealDestinations, type ResealReport } from './reseal.js';
