import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3006),
  REDIS_URL: env.redisUrl,
});
export type WorkerConfig = z.infer<typeof configSchema>;
