import { defineConfig } from 'vitest/config';
import { reporters } from './vitest.reporters';

// `npm run test:chaos`: the stack killed, cut and fuzzed while under load (tests/chaos). Each
// file starts its own cluster (two replicas of every service, its own NATS, Redis, database).
export default defineConfig({
  test: {
    include: ['tests/chaos/**/*.chaos.ts'],
    globalSetup: ['./tests/chaos/support/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    reporters,
  },
});
