import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3005),
  /**
   * A streaming replica for the dashboards' figures (read-heavy, a second or so of lag is fine).
   * Unset: they read the primary. Consumers always write through DATABASE_URL.
   */
  DATABASE_READ_URL: env.optionalDatabaseUrl,
});
export type AnalyticsConfig = z.infer<typeof configSchema>;
