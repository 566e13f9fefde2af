import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run bench -- --smoke`: its output and exit code. */
function benchSmoke(): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.mjs', '--smoke'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/**
 * The benchmarks are figures for people, never a pass/fail on timing; this only proves the
 * harness still runs every scenario against its baseline to the end: a bench that rotted would
 * otherwise be found broken the day someone needs its numbers.
 */
describe('npm run bench -- --smoke', () => {
  it('runs every scenario against its baseline, with no failed request and every payment settled once', async () => {
    const { status, output } = await benchSmoke();
    expect(status, output.slice(-4_000)).toBe(0);
    const rows = output
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| scenario'));
    const scenarios = [
      /^\| GET \/api\/products\/:id through the gateway \|/,
      /^\| GET \/api\/products\/:id straight to catalog \|/,
      /^\| GET \/product\/:id share page through the gateway, `accept-encoding: br, gzip` \|/,
      /^\| GET \/api\/products\/:id through the gateway, Zipf \(s = 1\) popularity over 10,000 products \|/,
      /^\| GET \/api\/products\/:id through the gateway, each of 10,000 products in turn \(the cache-miss path/,
      /^\| \d+ MiB download via \/dl through the delivery edge/,
      /^\| \d+ MiB download via \/dl from delivery streaming the file itself \(`npm start`'s default/,
      /^\| \d+ MiB upload through the delivery edge.*the floor .*[\d.]+ MB\/s.*Lockdrop = \*\*[\d.]+ of the floor\*\*/,
      /^\| payment webhooks, 200 payments \+ 50 duplicates per round.*settled [\d–]+ payments\/s.*200 purchases for 200 payments.*floor server/,
      /^\| payment webhooks at a steady offered 40 payments\/s .*200 purchases for 200 payments.*\| the offered rate: 40 payments\/s/,
    ];
    for (const scenario of scenarios)
      expect(
        rows.some((row) => scenario.test(row)),
        String(scenario),
      ).toBe(true);
    for (const row of rows) {
      expect(row).toMatch(/\*\*\d+\.\d\d\*\*/);
      expect(row).not.toMatch(/\d+ errors/);
    }
    expect(output).not.toMatch(/error lines in service logs/);
  }, 600_000);
});
