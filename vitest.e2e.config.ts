import { defineConfig } from 'vitest/config';
import { reporters } from './vitest.reporters';

// Browser journeys against a running app (E2E_BASE_URL); `npm run test:e2e` starts one.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // A journey is many pages and waits: the longest take 20–25 s on an idle 2-core machine
    // (team.e2e.ts 25 s, recovery-codes 21 s), so 30 s failed them on a busier one. The waits
    // inside each journey still fail a real defect on their own, well before this.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters,
  },
});
