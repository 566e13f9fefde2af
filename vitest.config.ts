import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'libs/*/{src,test}/**/*.test.ts',
      'services/*/{src,test}/**/*.test.ts',
      'web/src/**/*.test.ts',
      'deploy/test/**/*.test.ts',
    ],
    globalSetup: ['./tools/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI sums the counts from this file (see .ci/run); people read the default reporter.
    reporters: process.env.VITEST_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT }]]
      : ['default'],
  },
});
