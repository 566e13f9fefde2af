import { z } from 'zod';

/** Thrown when the environment does not satisfy a service's config schema. `message` is one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Variables whose values are secrets: a config error names them but never prints them. */
const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN|HASH/;

/**
 * Parses `env` against a service's zod schema. On failure the error message is a single line
 * naming every bad variable, so start-up logs say exactly what to fix.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(env)';
    const raw = env[key];
    const got =
      raw === undefined
        ? 'missing'
        : SECRET_NAME.test(key)
          ? `got ${raw.length} characters, not shown`
          : `got ${JSON.stringify(redactUrl(raw))}`;
    return `${key}: ${issue.message} (${got})`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** Runs `start`; a ConfigError ends the process with its one-line message and exit code 78 (EX_CONFIG). */
export async function startOrExit(start: () => Promise<unknown>): Promise<void> {
  try {
    await start();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

function redactUrl(value: string): string {
  return value.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

const urlWithProtocols = (protocols: string[], label: string) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a ${label} URL (${protocols.map((p) => `${p}//`).join(' or ')})` },
  );

/**
 * A PostgreSQL URL naming one host or several (`postgres://u@h1:5432,h2:5432/db?…`, libpq's
 * multi-host form, which WHATWG URL cannot parse): valid when each single-host URL it stands for is.
 */
function isPostgresUrl(value: string): boolean {
  const match = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/.exec(value);
  if (!match) return false;
  const [, scheme, userinfo = '', hosts = '', rest = ''] = match;
  return hosts.split(',').every((host) => {
    if (!host) return false;
    try {
      return new URL(`${scheme}${userinfo}${host}${rest}`).hostname !== '';
    } catch {
      return false;
    }
  });
}

const postgresUrl = z.string().refine(isPostgresUrl, {
  message: 'must be a PostgreSQL URL (postgres:// or postgresql://, hosts comma-separated)',
});

/** One NATS URL or several, comma-separated (the seed servers of a cluster). */
const natsUrls = z.string().refine(
  (value) =>
    value.split(',').every((part) => {
      try {
        return ['nats:', 'tls:'].includes(new URL(part.trim()).protocol);
      } catch {
        return false;
      }
    }),
  { message: 'must be NATS URLs (nats:// or tls://), comma-separated' },
);

/** `host:port,host:port`: each part a host name and a port. */
const hostPortList = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))
  .pipe(
    z
      .string()
      .regex(
        /^\s*[^\s:,]+:\d{1,5}\s*(,\s*[^\s:,]+:\d{1,5}\s*)*$/,
        'must be host:port pairs, comma-separated',
      )
      .transform((list) =>
        list.split(',').map((pair) => {
          const [host, port] = pair.trim().split(':');
          return { host: host!, port: Number(port) };
        }),
      )
      .optional(),
  );

/**
 * Redis, standalone (`REDIS_URL`) or behind Sentinel (`REDIS_SENTINELS`, the Sentinels' `host:port`
 * list, and `REDIS_SENTINEL_NAME`, the master name they watch). With Sentinels, REDIS_URL still
 * carries the password, database number and `rediss:` if any; its host is not used.
 */
export const redisEnv = {
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:'], 'Redis').default('redis://127.0.0.1:6379'),
  REDIS_SENTINELS: hostPortList,
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
};
export type RedisEnv = {
  REDIS_URL: string;
  REDIS_SENTINELS?: { host: string; port: number }[];
  REDIS_SENTINEL_NAME: string;
};

/** What ioredis takes to reach Redis, standalone or through Sentinel (no ioredis types needed here). */
export interface RedisConnectionOptions {
  host?: string;
  port?: number;
  sentinels?: { host: string; port: number }[];
  /** The master name the Sentinels watch. */
  name?: string;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
  enableTLSForSentinelMode?: boolean;
  /** Drop the connection at once when Sentinel announces a new master (ioredis ≥ 5.3). */
  failoverDetector?: boolean;
  /** A write that reaches a demoted master (READONLY) reconnects, to the new one. */
  reconnectOnError?: (error: Error) => boolean | 1 | 2;
}

/**
 * ioredis options for RedisEnv: REDIS_URL's host, or the master REDIS_SENTINEL_NAME as the
 * REDIS_SENTINELS report it, with REDIS_URL's credentials, database and TLS either way.
 */
export function redisConnectionOptions(config: RedisEnv): RedisConnectionOptions {
  const url = new URL(config.REDIS_URL);
  const common: RedisConnectionOptions = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    db: Number(url.pathname.slice(1) || 0),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 2 : false),
  };
  if (!config.REDIS_SENTINELS?.length)
    return { ...common, host: url.hostname, port: Number(url.port || 6379) };
  return {
    ...common,
    sentinels: config.REDIS_SENTINELS,
    name: config.REDIS_SENTINEL_NAME,
    failoverDetector: true,
    ...(url.protocol === 'rediss:' ? { enableTLSForSentinelMode: true } : {}),
  };
}

/** A string that is unset when missing or empty (compose passes `VAR=` for an unset variable). */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value : undefined));

/**
 * How many servers of a NATS cluster keep each stream and consumer (JetStream replicas): 1 on
 * one server, 3 in production (survives losing one node; publishes are acknowledged once a
 * majority has the message).
 */
export const busEnv = {
  BUS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * The process's NATS user and password (issue 30): each service connects as its own user,
   * whose permissions (libs/bus permissions.ts) name the subjects it may publish and subscribe.
   * Both unset: no authentication, as a local `nats-server -js` expects. An empty value is unset.
   */
  NATS_USER: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z][a-z0-9_-]*$/, 'must be lower-case letters, digits, _ or -')
      .optional(),
  ),
  NATS_PASSWORD: optionalText,
};

/** The bus settings' refinement: a NATS user needs its password and a password its user. */
export function natsCredentialsComplete(config: {
  NATS_USER?: string;
  NATS_PASSWORD?: string;
}): boolean {
  return (config.NATS_USER === undefined) === (config.NATS_PASSWORD === undefined);
}

/** Reusable env fields with defaults that fit the local machine. */
export const env = {
  databaseUrl: postgresUrl.default('postgres://postgres@127.0.0.1:5432/lockdrop'),
  /** A PostgreSQL URL that is unset unless given (an empty value counts as unset). */
  optionalDatabaseUrl: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .pipe(postgresUrl.optional()),
  redisUrl: urlWithProtocols(['redis:', 'rediss:'], 'Redis').default('redis://127.0.0.1:6379'),
  natsUrl: natsUrls.default('nats://127.0.0.1:4222'),
  url: (fallback: string) => urlWithProtocols(['http:', 'https:'], 'HTTP').default(fallback),
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  host: z.string().min(1).default('127.0.0.1'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prefix of JetStream stream and subject names; tests give each run its own. */
  busNamespace: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'must be lower-case letters, digits or _')
    .default('lockdrop'),
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1'),
};

/** Fields every HTTP service shares. */
export const baseServiceEnv = {
  HOST: env.host,
  LOG_LEVEL: env.logLevel,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
};
