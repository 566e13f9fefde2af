/** Recurring billing: the seller's plan and the buyer's subscriptions (payments' API). */
export { ChoosePlanButton, choosePlanFor } from './components/choose-plan-button';
export { PlanBillingSection } from './components/plan-billing-section';
export { SubscriptionList } from './components/subscription-list';
export { useSubscriberFigures, billingKeys } from './api/billing';
export { recurringPrice, perInterval } from './lib/format';
