import { defineConfig } from 'vitest/config';
import { reporters } from './vitest.reporters';

export default defineConfig({
  test: {
    include: [
      'libs/*/{src,test}/**/*.test.ts',
      'services/*/{src,test}/**/*.test.ts',
      'tests/*/**/*.test.ts',
      'web/src/**/*.test.ts',
      'deploy/test/**/*.test.ts',
      'tools/test/**/*.test.ts',
    ],
    globalSetup: ['./tools/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters,
  },
});
