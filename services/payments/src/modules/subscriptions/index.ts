export { renewalReminderEmail } from './subscription-emails.js';
export {
  type Subscription,
  addChargeRefund,
  findLivePlanSubscription,
  findSubscription,
  latestCharge,
  listBuyerSubscriptions,
  listSubscriptionsDue,
  noteSubscription,
  sellerSubscriberFigures,
  updateSubscription,
} from './subscriptions.repository.js';
export {
  type SubscriptionDeps,
  type SubscriptionRules,
  accessUntil,
  adoptProviderRenewal,
  buildRenewalCheckout,
  emitSubscriptionEvent,
  endRefundedSubscription,
  expireSubscription,
  insertRenewalCheckout,
  planPrice,
  providerRefOf,
  recordRenewalFailure,
  settleSubscriptionCharge,
  stopProviderCharges,
} from './subscriptions.js';
