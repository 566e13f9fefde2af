import { defineConfig } from 'vitest/config';
import { reporters } from './vitest.reporters';

// Browser journeys against a running app (E2E_BASE_URL); `npm run test:e2e` starts one.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters,
  },
});
