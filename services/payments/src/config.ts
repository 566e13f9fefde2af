import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceEnv(3003),
});
export type PaymentsConfig = z.infer<typeof configSchema>;
