export { subscribeToSubscriptionsDue } from './subscriptions-due.consumer.js';
export { subscriptionRoutes } from './subscriptions.routes.js';
