import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['libs/*/{src,test}/**/*.test.ts', 'services/*/{src,test}/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['./tools/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
