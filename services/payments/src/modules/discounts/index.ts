export { type DiscountCodeRow } from './discounts.repository.js';
export { discountRoutes } from './discounts.routes.js';
export {
  amountOffMinor,
  createDiscountService,
  discountLabel,
  usableDiscount,
} from './discounts.js';
