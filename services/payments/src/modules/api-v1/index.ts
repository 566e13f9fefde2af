export { apiV1MoneyRoutes, type ApiV1Deps } from './api-v1.routes.js';
