// Sums vitest JSON reports into CI's closing line, naming each failed test just above it.
// Usage: ci-summary.mjs "<step>=<report.json>"… -- [failed step…]
// A failed step without its own test counts (lint, build…) and a test command that left no
// report each count as one failure, so neither can go unnoticed.
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const separator = args.indexOf('--');
const reportArgs = separator === -1 ? args : args.slice(0, separator);
const failedSteps = separator === -1 ? [] : args.slice(separator + 1);
const reports = Object.fromEntries(
  reportArgs.map((arg) => [
    arg.slice(0, arg.lastIndexOf('=')),
    arg.slice(arg.lastIndexOf('=') + 1),
  ]),
);
let passed = 0;
let failed = 0;

for (const [step, file] of Object.entries(reports)) {
  if (!file || !existsSync(file)) {
    console.log(`no test report from ${step}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failures = (report.numFailedTests ?? 0) + suitesFailedWithoutFailedTests(report);
  passed += report.numPassedTests ?? 0;
  // The runner failed although no test or file did: an unhandled error between tests.
  if (failures === 0 && failedSteps.includes(step)) {
    console.log(`${step} failed outside any test (see "Unhandled Errors" above)`);
    failed += 1;
  }
  failed += failures;
  for (const name of failedTestNames(report)) console.log(`FAILED in ${step}: ${name}`);
}
for (const step of failedSteps) {
  if (step in reports) continue;
  console.log(`failed step: ${step}`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);

// Printed just above the closing line: the tail of a CI log is often all that survives of it.
function failedTestNames(report) {
  return (report.testResults ?? []).flatMap((suite) => {
    const file = String(suite.name ?? '').replace(`${process.cwd()}/`, '');
    const tests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (tests.length === 0) {
      // A failed beforeAll skips the file's tests: its error is the suite's message.
      const reason = firstLine(suite.message);
      return suite.status === 'failed'
        ? [`${file} (the file itself)${reason ? ` — ${reason}` : ''}`]
        : [];
    }
    return tests.map((test) => {
      const reason = firstLine(test.failureMessages?.[0]);
      return `${file} > ${test.fullName ?? test.title}${reason ? ` — ${reason}` : ''}`;
    });
  });
}

function firstLine(message) {
  return String(message ?? '')
    .split('\n')[0]
    .slice(0, 300);
}

// A file that fails to load (or errors outside a test) fails its suite with no failed test.
function suitesFailedWithoutFailedTests(report) {
  return (report.testResults ?? []).filter(
    (suite) =>
      suite.status === 'failed' &&
      !(suite.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
}
