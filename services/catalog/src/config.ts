import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3002),
});
export type CatalogConfig = z.infer<typeof configSchema>;
