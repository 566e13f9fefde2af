export { type DiscountCodeRow } from './discounts.repository.js';
export { discountRoutes } from './discounts.routes.js';
export {
  amountOffMinor,
  createDiscountService,
  type DiscountService,
  type PresentedDiscountCode,
  discountLabel,
  usableDiscount,
} from './discounts.js';
