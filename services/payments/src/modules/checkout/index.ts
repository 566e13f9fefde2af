export { checkoutRoutes } from './checkout.routes.js';
export { type CheckoutDeps, newTxRef, openCheckout } from './checkout.js';
