import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@lockdrop/testing';

const run = promisify(execFile);
const VERSION = '15';
const BIN = `/usr/lib/postgresql/${VERSION}/bin`;
/** Every cluster this suite creates is named so; the creating process's pid follows. */
const PREFIX = 'lockdrop_chaos_';

/**
 * A PostgreSQL primary and a streaming standby on loopback ports, as Debian's tools make them
 * (`pg_createcluster`, then `pg_basebackup -R` into the standby), with synchronous replication:
 * a commit returns only once the standby has flushed it, so a failover loses nothing that was
 * acknowledged. The clusters are named per run and dropped by `stop()`.
 */
export interface PostgresPair {
  /** `postgres://postgres@127.0.0.1:P,127.0.0.1:S/<database>?target_session_attrs=read-write` */
  url(database: string): string;
  primaryPort: number;
  standbyPort: number;
  /** kill -9 of the primary's postmaster and every backend: the machine gone. */
  killPrimary(): Promise<void>;
  /** `pg_ctlcluster … promote` of the standby; resolves once it accepts writes. */
  promoteStandby(): Promise<void>;
  /** Both clusters dropped (`pg_dropcluster --stop`), whatever state they are in. */
  stop(): Promise<void>;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function dropCluster(name: string): Promise<void> {
  await run('pg_dropcluster', ['--stop', VERSION, name]).catch(async () => {
    // A cluster whose creation failed half-way may have only a directory or two.
    await rm(`/etc/postgresql/${VERSION}/${name}`, { recursive: true, force: true });
    await rm(`/var/lib/postgresql/${VERSION}/${name}`, { recursive: true, force: true });
  });
}

/**
 * Clusters an earlier run of this suite left behind (its process killed before its teardown):
 * dropped when the pid in their name is no longer running. Other clusters are never touched.
 */
async function dropAbandonedClusters(): Promise<void> {
  const names = await readdir(`/etc/postgresql/${VERSION}`).catch(() => [] as string[]);
  for (const name of names) {
    const match = new RegExp(`^${PREFIX}(\\d+)_[0-9a-f]+_[pr]$`).exec(name);
    if (match && !isAlive(Number(match[1]))) await dropCluster(name);
  }
}

async function createCluster(name: string, port: number): Promise<void> {
  await run('pg_createcluster', [
    VERSION,
    name,
    '-p',
    String(port),
    '--start-conf',
    'manual',
    '--',
    '--auth=trust',
  ]);
  // Loopback only; small, since the whole suite shares two cores with other work.
  await writeFile(
    `/etc/postgresql/${VERSION}/${name}/conf.d/lockdrop-chaos.conf`,
    [
      "listen_addresses = '127.0.0.1'",
      'shared_buffers = 32MB',
      'max_connections = 200',
      'wal_keep_size = 256MB',
      '',
    ].join('\n'),
  );
}

async function query(port: number, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`PostgreSQL: ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startPostgresPair(): Promise<PostgresPair> {
  await dropAbandonedClusters();
  const base = `${PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`;
  const primary = `${base}_p`;
  const standby = `${base}_r`;
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const stop = async () => {
    await dropCluster(primary);
    await dropCluster(standby);
  };
  try {
    await createCluster(primary, primaryPort);
    await run('pg_ctlcluster', [VERSION, primary, 'start']);
    await createCluster(standby, standbyPort);
    // The standby's data directory becomes a copy of the primary's that follows it (-R).
    const standbyData = `/var/lib/postgresql/${VERSION}/${standby}`;
    for (const entry of await readdir(standbyData))
      await rm(`${standbyData}/${entry}`, { recursive: true, force: true });
    await run('runuser', [
      '-u',
      'postgres',
      '--',
      `${BIN}/pg_basebackup`,
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyData,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    await run('pg_ctlcluster', [VERSION, standby, 'start']);
    // Synchronous from now on: a commit waits until the standby has flushed it.
    await query(primaryPort, `ALTER SYSTEM SET synchronous_standby_names = '*'`);
    await query(primaryPort, 'SELECT pg_reload_conf()');
    await until('the standby streaming synchronously', async () => {
      const { rows } = await query(
        primaryPort,
        `SELECT 1 FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'sync'`,
      );
      return rows.length === 1 ? true : undefined;
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url: (database) =>
      `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/${database}?target_session_attrs=read-write`,
    primaryPort,
    standbyPort,
    async killPrimary() {
      const pidFile = await readFile(
        `/var/lib/postgresql/${VERSION}/${primary}/postmaster.pid`,
        'utf8',
      );
      const postmaster = Number(pidFile.split('\n')[0]);
      const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
      const backends = stdout.split('\n').map(Number).filter(Boolean);
      for (const pid of [postmaster, ...backends]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await until('the primary gone', async () =>
        [postmaster, ...backends].some(isAlive) ? undefined : true,
      );
    },
    async promoteStandby() {
      await run('pg_ctlcluster', [VERSION, standby, 'promote']);
      await until('the promoted standby accepting writes', async () => {
        const { rows } = await query(standbyPort, 'SELECT pg_is_in_recovery() AS recovery');
        return rows[0].recovery === false ? true : undefined;
      });
    },
    stop,
  };
}
