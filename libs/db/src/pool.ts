import pg from 'pg';
import { hostSelectorFor, isMultiHost, NoSuitableHostError, type HostSelector } from './hosts.js';
import { PreparingClient } from './prepared-statements.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// BIGINT (int8) columns hold money in minor units; parse them as numbers, never strings.
// Values beyond 2^53 are out of range for any amount we handle, so fail loudly instead.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 out of safe range: ${value}`);
  return parsed;
});

export interface PoolOptions {
  /**
   * One host, or several with libpq's `target_session_attrs`
   * (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`, see hosts.ts): each new
   * connection then goes to the host that is currently primary, and after a failover to the new one.
   */
  connectionString: string;
  /** The service's own schema: every unqualified table name resolves into it. */
  schema: string;
  max?: number;
  applicationName?: string;
}

export function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return name;
}

export function createPool({
  connectionString,
  schema,
  max = 10,
  applicationName,
}: PoolOptions): Pool {
  assertIdentifier(schema);
  const connection = {
    application_name: applicationName ?? schema,
    options: `-c search_path=${schema},public`,
    connectionTimeoutMillis: 5_000,
  };
  const multiHost = isMultiHost(connectionString);
  const selector = multiHost ? hostSelectorFor(connectionString, connection) : undefined;
  const Pool = selector ? FailoverPool : pg.Pool;
  const pool = new Pool({
    Client: selector ? failoverClient(selector) : PooledClient,
    // The selector sets each connection's host; the first one's URL carries the rest.
    connectionString: selector
      ? selector.parsed.urlFor(selector.parsed.hosts[0]!)
      : connectionString,
    max,
    ...connection,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool discards it and the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A pool's client hears its own connection errors from the moment it exists. pg emits 'error' on a
 * client whose server ends the connection while no query is running on it, and pg-pool listens
 * only while the client is idle in the pool: a client being connected, or checked out between two
 * statements of a transaction, would crash the process on a primary's death (the failover chaos
 * test saw it). Nothing is lost by listening: the client is no longer queryable, its next query
 * fails as an outage, and the pool drops it when it is released.
 */
class PooledClient extends PreparingClient {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/**
 * A PooledClient that connects to the host `selector` names, checks the server is the kind
 * the URL asks for (a primary, for read-write), and otherwise fails as an outage (08001) after
 * telling the selector, so the next connection asks every host again. Connections already open
 * to a primary that died fail on their own and are dropped by the pool.
 */
/** Marks an error raised while a FailoverClient connected to the host it had remembered. */
const LOST_REMEMBERED_HOST = Symbol('lost the remembered host');

/**
 * A pool whose checkout tries once more when a new connection failed at the host the selector
 * remembered (the primary that just died): the second try asks every host, so the first query
 * after a failover that has finished goes to the new primary instead of failing.
 */
class FailoverPool extends pg.Pool {
  // pg-pool's overloads: a promise without a callback, `(error, client, done)` otherwise.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override connect(callback?: any): any {
    const attempt = () => super.connect() as Promise<pg.PoolClient>;
    const connecting = attempt().catch((error: unknown) => {
      if ((error as { [LOST_REMEMBERED_HOST]?: boolean })[LOST_REMEMBERED_HOST]) return attempt();
      throw error;
    });
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(null, client, (release?: Error | boolean) => client.release(release)),
      (error: Error) => callback(error),
    );
  }
}

function failoverClient(selector: HostSelector): typeof PooledClient {
  return class FailoverClient extends PooledClient {
    // pg's overloads: a promise without a callback, the callback otherwise.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override connect(callback?: any): any {
      const connecting = this.#connectToTarget();
      if (!callback) return connecting;
      connecting.then(
        () => callback(null, this),
        (error: Error) => callback(error),
      );
    }

    async #connectToTarget(): Promise<this> {
      const remembered = selector.remembers();
      const host = await selector.target();
      this.host = host.host;
      this.port = host.port;
      try {
        await super.connect();
      } catch (error) {
        selector.forget(host);
        if (remembered && error instanceof Error)
          Object.assign(error, { [LOST_REMEMBERED_HOST]: true });
        throw error;
      }
      const suits = await selector.suits(this, host).catch(() => {
        selector.forget(host);
        return false;
      });
      if (suits) return this;
      await this.end().catch(() => undefined);
      throw Object.assign(
        new NoSuitableHostError(
          `${host.host}:${host.port} is not a ${selector.parsed.target} server any more`,
        ),
        { [LOST_REMEMBERED_HOST]: remembered },
      );
    }
  };
}
