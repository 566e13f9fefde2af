export { subscribeToReadModelEvents } from './read-models.consumer.js';
export {
  type ProductView,
  findProduct,
  findSellerEmail,
  findSellerPlan,
  listExchangeRates,
  upsertSellerPlan,
} from './read-models.repository.js';
