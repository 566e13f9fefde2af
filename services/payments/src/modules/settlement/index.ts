export { startReconciler } from './reconciler.js';
export { createSettlePacer, type SettlePacer, type SettlePacingOptions } from './settle-pacing.js';
export { createSettler, type Settler, type SettlerDeps, type SettlerOptions } from './settler.js';
export { pruneSettledProviderEvents } from './retention.repository.js';
export { storeChargeEvents } from './provider-events.repository.js';
export { type SettlementDeps, settleTransaction } from './settlement.js';
export { webhookRoutes } from './webhooks.routes.js';
export { paymentStatusRoutes } from './payment-status.routes.js';
