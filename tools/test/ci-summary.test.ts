import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, '..', 'ci-summary.mjs');
let scratch: string | undefined;
afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** CI's closing lines for one step's vitest JSON report (the tail is often all a log keeps). */
async function summary(report: object): Promise<{ lines: string[]; code: number }> {
  scratch = await mkdtemp(path.join(tmpdir(), 'lockdrop-ci-summary-'));
  const file = path.join(scratch, 'report.json');
  await writeFile(file, JSON.stringify(report));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, `chaos=${file}`]);
    return { lines: stdout.trim().split('\n'), code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { lines: failed.stdout.trim().split('\n'), code: failed.code };
  }
}

it('names a file whose set-up failed, with the first line of its error', async () => {
  const { lines, code } = await summary({
    numPassedTests: 27,
    numFailedTests: 0,
    testResults: [
      {
        name: `${process.cwd()}/tests/chaos/schedules.chaos.ts`,
        status: 'failed',
        message: 'payments-b exited during start-up (code 1); the last lines:\nmore',
        assertionResults: [{ status: 'skipped', title: 'fire once per tick' }],
      },
    ],
  });
  expect(lines).toEqual([
    'FAILED in chaos: tests/chaos/schedules.chaos.ts (the file itself) — payments-b exited during start-up (code 1); the last lines:',
    '27 passed, 1 failed',
  ]);
  expect(code).toBe(1);
});

it('names each failed test with its reason, and passes a clean report', async () => {
  const failing = await summary({
    numPassedTests: 3,
    numFailedTests: 1,
    testResults: [
      {
        name: `${process.cwd()}/e2e/first-day.e2e.ts`,
        status: 'failed',
        assertionResults: [
          { status: 'passed', fullName: 'signs up' },
          {
            status: 'failed',
            fullName: 'one seller shell',
            failureMessages: ["expected '/dashboard/settings' to be '/settings'\n at …"],
          },
        ],
      },
    ],
  });
  expect(failing.lines).toEqual([
    "FAILED in chaos: e2e/first-day.e2e.ts > one seller shell — expected '/dashboard/settings' to be '/settings'",
    '3 passed, 1 failed',
  ]);
  const clean = await summary({ numPassedTests: 4, numFailedTests: 0, testResults: [] });
  expect(clean).toEqual({ lines: ['4 passed, 0 failed'], code: 0 });
});
