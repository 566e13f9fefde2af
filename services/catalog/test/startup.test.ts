import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('service start-up', () => {
  it('stops with one line naming a malformed DATABASE_URL', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, DATABASE_URL: 'not-a-url', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(78);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'Invalid configuration: DATABASE_URL: must be a PostgreSQL URL (postgres:// or postgresql://, hosts comma-separated) (got "not-a-url")',
    );
  });
});
