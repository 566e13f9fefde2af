import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3004),
});
export type DeliveryConfig = z.infer<typeof configSchema>;
