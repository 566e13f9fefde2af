export { subscribeToReadModelEvents } from './read-models.consumer.js';
export {
  type ProductView,
  findProduct,
  findSellerPlan,
  findShownBrand,
  listExchangeRates,
  SAVED_BRAND_COLUMNS,
  type SavedBrand,
  shownBrand,
  upsertSellerPlan,
} from './read-models.repository.js';
export {
  type FxPolicy,
  fxPolicy,
  sellerRatio,
  usableExchangeRates,
  withBuyerSpread,
  withSellerSpread,
} from './fx-policy.js';
