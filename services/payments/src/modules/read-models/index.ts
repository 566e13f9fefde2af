export { subscribeToReadModelEvents } from './read-models.consumer.js';
export {
  type ProductView,
  findProduct,
  findSellerPlan,
  findShownBrand,
  emailBrand,
  buyerLinkOrigin,
  findSellerDomain,
  SELLER_DOMAIN_COLUMNS,
  type SellerDomain,
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
