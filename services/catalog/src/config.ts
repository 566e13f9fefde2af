import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3002),
  /** Asked synchronously whether an upload belongs to the seller creating the product. */
  DELIVERY_URL: env.url('http://127.0.0.1:3004'),
  /**
   * Rates older than this many hours are not used to show a price in another currency (issue
   * 30): the product page then shows its own currency with the missing-rate warning, as payments
   * refuses to charge in another currency on them. 0 = no bound; unset: 48 in production, 0
   * elsewhere (the shipped seed rates are old).
   */
  FX_MAX_RATE_AGE_HOURS: z.coerce.number().int().min(0).optional(),
});
export type CatalogConfig = z.infer<typeof configSchema>;

/** The rate-age bound in hours: FX_MAX_RATE_AGE_HOURS, or 48 in production and none elsewhere. */
export const maxRateAgeHours = (config: CatalogConfig): number =>
  config.FX_MAX_RATE_AGE_HOURS ?? (config.NODE_ENV === 'production' ? 48 : 0);
