export { subscribeToBuyerUpdates } from './buyer-updates.consumer.js';
export { buyerUpdateRoutes } from './buyer-updates.routes.js';
export { createBuyerUpdatesService } from './buyer-updates.js';
