import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3005),
});
export type AnalyticsConfig = z.infer<typeof configSchema>;
