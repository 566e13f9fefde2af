export { subscribeToSubscriptionsDue } from './subscriptions-due.consumer.js';
export { subscriptionRoutes } from './subscriptions.routes.js';
export { cancelSoldSubscription, soldSubscription } from './subscription-actions.js';
export { type RenewalsDeps } from './subscription-clock.js';
