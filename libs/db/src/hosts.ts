import pg from 'pg';

/**
 * libpq's multi-host connection strings for node-postgres, which (8.23) takes one host only:
 * `postgres://user@h1:5432,h2:5432/db?target_session_attrs=read-write` names a primary and its
 * standbys; each new connection goes to the first host, in order, that accepts it and has the
 * session kind asked for. After a failover (the primary gone, a standby promoted) the next
 * connection finds the new primary by itself.
 */

/** libpq's values; `read-write` and `primary` differ only in how a server is asked. */
export type TargetSessionAttrs =
  'any' | 'read-write' | 'primary' | 'read-only' | 'standby' | 'prefer-standby';

const TARGETS = new Set<TargetSessionAttrs>([
  'any',
  'read-write',
  'primary',
  'read-only',
  'standby',
  'prefer-standby',
]);

export interface HostPort {
  host: string;
  port: number;
}

export interface ParsedDatabaseUrl {
  hosts: HostPort[];
  target: TargetSessionAttrs;
  /** The URL for one of `hosts`, without target_session_attrs (node-postgres's form). */
  urlFor(host: HostPort): string;
}

const SHAPE = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;

function splitUrl(connectionString: string) {
  const match = SHAPE.exec(connectionString);
  if (!match) throw new Error('not a PostgreSQL URL (postgres://…)');
  const [, scheme, userinfo = '', hostList = '', path = '', query = '', fragment = ''] = match;
  return { scheme: scheme!, userinfo, hostList, path, query, fragment };
}

function hostPortOf(part: string): HostPort {
  const url = new URL(`postgres://${part}`);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port || 5432),
  };
}

export function parseDatabaseUrl(connectionString: string): ParsedDatabaseUrl {
  const { scheme, userinfo, hostList, path, query } = splitUrl(connectionString);
  const parts = hostList.split(',');
  if (parts.some((part) => !part)) throw new Error('empty host in a PostgreSQL URL');
  const hosts = parts.map(hostPortOf);
  const params = new URLSearchParams(query.slice(1));
  const target = (params.get('target_session_attrs') ?? 'any') as TargetSessionAttrs;
  if (!TARGETS.has(target))
    throw new Error(`target_session_attrs must be one of ${[...TARGETS].join(', ')}`);
  params.delete('target_session_attrs');
  const rest = params.toString();
  return {
    hosts,
    target,
    urlFor: ({ host, port }) =>
      `${scheme}${userinfo}${host.includes(':') ? `[${host}]` : host}:${port}${path}${rest ? `?${rest}` : ''}`,
  };
}

/** Whether this URL needs host selection (several hosts, or a session kind to check). */
export function isMultiHost(connectionString: string): boolean {
  const { hosts, target } = parseDatabaseUrl(connectionString);
  return hosts.length > 1 || target !== 'any';
}

/** The same URL with another database name, every host kept. */
export function replaceDatabaseName(connectionString: string, database: string): string {
  const { scheme, userinfo, hostList, query, fragment } = splitUrl(connectionString);
  return `${scheme}${userinfo}${hostList}/${encodeURIComponent(database)}${query}${fragment}`;
}

export function databaseNameFromUrl(connectionString: string): string {
  const { path } = splitUrl(connectionString);
  return decodeURIComponent(path.slice(1)) || 'postgres';
}

/** The user and password part of any PostgreSQL URL, single- or multi-host. */
export function userInfoOf(connectionString: string): { user: string; password: string } {
  const { userinfo } = splitUrl(connectionString);
  const url = new URL(`postgres://${userinfo}localhost/`);
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

/** Raised when no host has the session kind asked for: an outage (SQLSTATE class 08). */
export class NoSuitableHostError extends Error {
  override name = 'NoSuitableHostError';
  /** sqlclient_unable_to_establish_sqlconnection: `isOutage` counts it, callers answer 503 and retry. */
  readonly code = '08001';
}

type Kind = 'primary' | 'standby';

/** A SQLSTATE other than connection trouble (08…) and shutdown or start-up (57P01–57P03). */
function serverRefused(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P0[123])/.test(code);
}

/** What a server is, asked on an open connection (libpq asks the same). */
async function kindOf(client: pg.Client, target: TargetSessionAttrs): Promise<Kind> {
  if (target === 'read-write' || target === 'read-only') {
    const { rows } = await client.query<{ transaction_read_only: string }>(
      'SHOW transaction_read_only',
    );
    return rows[0]!.transaction_read_only === 'on' ? 'standby' : 'primary';
  }
  const { rows } = await client.query<{ recovery: boolean }>(
    'SELECT pg_is_in_recovery() AS recovery',
  );
  return rows[0]!.recovery ? 'standby' : 'primary';
}

const wants = (target: TargetSessionAttrs, kind: Kind): boolean =>
  target === 'any' ||
  ((target === 'read-write' || target === 'primary') && kind === 'primary') ||
  ((target === 'read-only' || target === 'standby' || target === 'prefer-standby') &&
    kind === 'standby');

/**
 * The host new connections of one URL go to: the last one found suitable, until a connection
 * to it fails or finds it the wrong kind; then every host is asked again, in order.
 */
export class HostSelector {
  readonly parsed: ParsedDatabaseUrl;
  #current: HostPort | undefined;
  #searching: Promise<HostPort> | undefined;

  constructor(
    connectionString: string,
    private readonly clientConfig: Omit<pg.ClientConfig, 'connectionString'> = {},
  ) {
    this.parsed = parseDatabaseUrl(connectionString);
  }

  /** The host to connect to now: the remembered one, or the result of asking every host. */
  target(): Promise<HostPort> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#searching ??= this.#search().finally(() => (this.#searching = undefined));
    return this.#searching;
  }

  /** Whether a host is remembered (the next connection goes there without asking them all). */
  remembers(): boolean {
    return this.#current !== undefined;
  }

  /** A connection to `host` failed or found it the wrong kind: look again next time. */
  forget(host: HostPort): void {
    if (this.#current === host) this.#current = undefined;
  }

  /** Checks a freshly opened connection; false (and forgotten) when the server is the wrong kind. */
  async suits(client: pg.Client, host: HostPort): Promise<boolean> {
    if (this.parsed.target === 'any' || this.parsed.target === 'prefer-standby') return true;
    if (wants(this.parsed.target, await kindOf(client, this.parsed.target))) return true;
    this.forget(host);
    return false;
  }

  async #search(): Promise<HostPort> {
    const { hosts, target } = this.parsed;
    const problems: string[] = [];
    let fallback: HostPort | undefined;
    for (const host of hosts) {
      const probe = new pg.Client({
        ...this.clientConfig,
        connectionString: this.parsed.urlFor(host),
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const kind = await kindOf(probe, target);
        if (wants(target, kind)) return (this.#current = host);
        fallback ??= host;
        problems.push(`${host.host}:${host.port} is a ${kind}`);
      } catch (error) {
        // A server that answers with a refusal of its own (no such database, bad password) is
        // the answer; only an unreachable or starting/stopping server sends us to the next one.
        if (serverRefused(error)) throw error;
        problems.push(`${host.host}:${host.port}: ${(error as Error).message}`);
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
    // prefer-standby: a primary will do when no standby answers (libpq's rule).
    if (target === 'prefer-standby' && fallback) return (this.#current = fallback);
    throw new NoSuitableHostError(
      `no PostgreSQL host is ${target === 'any' ? 'reachable' : `a ${target} server`} (${problems.join('; ')})`,
    );
  }
}

const selectors = new Map<string, HostSelector>();

/** One selector per URL in a process, so every pool of it follows a failover together. */
export function hostSelectorFor(
  connectionString: string,
  clientConfig: Omit<pg.ClientConfig, 'connectionString'> = {},
): HostSelector {
  let selector = selectors.get(connectionString);
  if (!selector) {
    selector = new HostSelector(connectionString, clientConfig);
    selectors.set(connectionString, selector);
  }
  return selector;
}

/**
 * A pg.Client (class `Client`) connected to the host `connectionString` selects; for
 * one-off clients (creating a database, an admin's grants).
 */
export async function connectClient(
  connectionString: string,
  config: Omit<pg.ClientConfig, 'connectionString'> = {},
): Promise<pg.Client> {
  if (!isMultiHost(connectionString)) {
    const client = new pg.Client({ ...config, connectionString });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }
  const selector = hostSelectorFor(connectionString, {
    connectionTimeoutMillis: 5_000,
    ...config,
  });
  const host = await selector.target();
  const client = new pg.Client({ ...config, connectionString: selector.parsed.urlFor(host) });
  try {
    await client.connect();
    if (!(await selector.suits(client, host)))
      throw new NoSuitableHostError(`${host.host}:${host.port} is no longer suitable`);
    return client;
  } catch (error) {
    selector.forget(host);
    await client.end().catch(() => undefined);
    throw error;
  }
}
