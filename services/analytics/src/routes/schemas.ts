import { errorBodySchema } from '@lockdrop/contracts';

// The shapes live in libs/contracts; the domain returns exactly these types.
export {
  analyticsDaysQuerySchema as daysQuery,
  overviewSchema,
  productFiguresListSchema,
  productDailySchema as dailySchema,
} from '@lockdrop/contracts';

export const errorResponses = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
