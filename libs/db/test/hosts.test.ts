import net from 'node:net';
import { createTestDatabase, freePort } from '@lockdrop/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPool,
  dropDatabase,
  ensureDatabase,
  isOutage,
  parseDatabaseUrl,
  withDatabaseName,
  databaseNameOf,
  credentialsOf,
} from '../src/index.js';

describe('multi-host URLs', () => {
  const url =
    'postgres://app:s%40cret@10.0.0.1:5433,db-2:5432,[::1]/shop?target_session_attrs=read-write&sslmode=disable';

  it('names each host, the session kind, and everything else once', () => {
    const parsed = parseDatabaseUrl(url);
    expect(parsed.hosts).toEqual([
      { host: '10.0.0.1', port: 5433 },
      { host: 'db-2', port: 5432 },
      { host: '::1', port: 5432 },
    ]);
    expect(parsed.target).toBe('read-write');
    expect(parsed.urlFor(parsed.hosts[2]!)).toBe(
      'postgres://app:s%40cret@[::1]:5432/shop?sslmode=disable',
    );
    expect(databaseNameOf(url)).toBe('shop');
    expect(withDatabaseName(url, 'postgres')).toBe(
      'postgres://app:s%40cret@10.0.0.1:5433,db-2:5432,[::1]/postgres?target_session_attrs=read-write&sslmode=disable',
    );
    expect(credentialsOf(url)).toEqual({ user: 'app', password: 's@cret' });
  });

  it('refuses a session kind libpq does not know', () => {
    expect(() => parseDatabaseUrl('postgres://h1,h2/db?target_session_attrs=master')).toThrow(
      'target_session_attrs',
    );
  });
});

/**
 * A TCP front to the machine's Postgres that can be closed, standing for a host that dies.
 * (The switch between a real primary and a promoted standby is tests/chaos/postgres-failover.)
 */
async function front(targetPort: number) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a pool on several hosts', async () => {
  const database = await createTestDatabase();
  const direct = new URL(database.url);
  const postgresPort = Number(direct.port || 5432);
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
    await database.drop();
  });
  const multiHost = (ports: number[], target = 'read-write') =>
    `postgres://${direct.username}${direct.password ? `:${direct.password}` : ''}@${ports
      .map((port) => `127.0.0.1:${port}`)
      .join(',')}${direct.pathname}?target_session_attrs=${target}`;

  it('skips a host that refuses connections and uses the next primary', async () => {
    const dead = await freePort();
    const pool = createPool({
      connectionString: multiHost([dead, postgresPort]),
      schema: 'public',
    });
    closers.push(() => pool.end());
    const { rows } = await pool.query<{ port: number }>(
      'SELECT inet_server_port() AS port, pg_is_in_recovery() AS recovery',
    );
    expect(rows[0]).toEqual({ port: postgresPort, recovery: false });
  });

  it('moves to the next host when the one in use dies, failing meanwhile as an outage', async () => {
    const first = await front(postgresPort);
    const second = await front(postgresPort);
    closers.push(second.close);
    const pool = createPool({
      connectionString: multiHost([first.port, second.port]),
      schema: 'public',
      max: 2,
    });
    closers.push(() => pool.end());
    await pool.query('SELECT 1');
    expect(pool.totalCount).toBeGreaterThan(0);
    await first.close();
    // The open connection dies with its host; the failure is an outage (a 503, an event retried).
    const failures: unknown[] = [];
    let answered = false;
    for (let attempt = 0; attempt < 5 && !answered; attempt += 1) {
      try {
        await pool.query('SELECT 1');
        answered = true;
      } catch (error) {
        failures.push(error);
      }
    }
    expect(answered).toBe(true);
    expect(failures.every(isOutage)).toBe(true);
    // At most the query that was on the dead connection fails: a new connection that finds the
    // remembered host gone asks the others at once.
    expect(failures.length).toBeLessThanOrEqual(1);
    const clients = await Promise.all([pool.connect(), pool.connect()]);
    for (const client of clients) client.release();
  });

  it('says no suitable host, as an outage, when every host is a standby or down', async () => {
    const dead = await freePort();
    const pool = createPool({ connectionString: multiHost([dead], 'standby'), schema: 'public' });
    closers.push(() => pool.end());
    const failed = await pool.query('SELECT 1').catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(isOutage(failed)).toBe(true);
    const standbyOnly = createPool({
      connectionString: multiHost([postgresPort], 'standby'),
      schema: 'public',
    });
    closers.push(() => standbyOnly.end());
    const refused = await standbyOnly.query('SELECT 1').catch((error: Error) => error);
    expect((refused as Error).message).toMatch(/no PostgreSQL host is a standby server/);
    expect(isOutage(refused)).toBe(true);
  });

  it('creates and drops a database through a multi-host URL', async () => {
    const dead = await freePort();
    const url = withDatabaseName(
      multiHost([dead, postgresPort]),
      `${databaseNameOf(database.url)}_extra`,
    );
    await ensureDatabase(url);
    const pool = createPool({ connectionString: url, schema: 'public', max: 1 });
    expect((await pool.query('SELECT current_database() AS name')).rows[0].name).toBe(
      databaseNameOf(url),
    );
    await pool.end();
    await dropDatabase(url);
  });
});
