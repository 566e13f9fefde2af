// Sums vitest JSON reports into CI's closing line. Usage: ci-summary.mjs unit.json e2e.json [failed step…]
// A step that failed without a test report (lint, build…) counts as one failure, so it can't go unnoticed.
import { existsSync, readFileSync } from 'node:fs';

const [unitReport, e2eReport, ...failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const file of [unitReport, e2eReport]) {
  if (!file || !existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed +=
    (report.numFailedTests ?? 0) +
    (report.numFailedTestSuites ?? 0) -
    countSuitesWithFailedTests(report);
}
const reported = new Set(['npm test', 'npm run test:e2e']);
for (const step of failedSteps) {
  const hasReport =
    step === 'npm test'
      ? existsSync(unitReport)
      : step === 'npm run test:e2e'
        ? existsSync(e2eReport)
        : false;
  if (!reported.has(step) || !hasReport) {
    console.log(`failed step: ${step}`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);

// A file that fails to load counts as a failed suite with no failed tests; count it once.
function countSuitesWithFailedTests(report) {
  return (report.testResults ?? []).filter(
    (suite) =>
      suite.status === 'failed' &&
      (suite.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
}
