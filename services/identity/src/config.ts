import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3001),
});
export type IdentityConfig = z.infer<typeof configSchema>;
