import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3002),
  /** Asked synchronously whether an upload belongs to the seller creating the product. */
  DELIVERY_URL: env.url('http://127.0.0.1:3004'),
});
export type CatalogConfig = z.infer<typeof configSchema>;
