// Shared by the unit and e2e configs: CI sums the counts from the JSON file (see .ci/run);
// people read the default reporter.
type ReporterList = Array<string | [string, Record<string, unknown>]>;

export const reporters: ReporterList = process.env.VITEST_JSON_REPORT
  ? ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT }]]
  : ['default'];
