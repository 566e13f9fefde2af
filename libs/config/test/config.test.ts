import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  busEnv,
  ConfigError,
  env,
  loadConfig,
  redisConnectionOptions,
  redisEnv,
} from '../src/index.js';

const schema = z.object({
  DATABASE_URL: env.databaseUrl,
  NATS_URL: env.natsUrl,
  PORT: env.port(3000),
});

describe('loadConfig', () => {
  it('fills local defaults when nothing is set', () => {
    expect(loadConfig(schema, {})).toEqual({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lockdrop',
      NATS_URL: 'nats://127.0.0.1:4222',
      PORT: 3000,
    });
  });

  it('stops with one line naming each bad variable, without leaking passwords', () => {
    const attempt = () =>
      loadConfig(schema, { DATABASE_URL: 'mysql://app:hunter2@db/lockdrop', PORT: 'eighty' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain('DATABASE_URL: must be a PostgreSQL URL');
      expect(message).toContain('PORT:');
      expect(message).not.toContain('hunter2');
    }
  });

  it('names a bad secret without printing it', () => {
    const withSecret = z.object({ SIGNING_KEY: z.string().min(32) });
    expect(() => loadConfig(withSecret, { SIGNING_KEY: 'k1:short-secret' })).toThrow(
      'SIGNING_KEY: Too small: expected string to have >=32 characters (got 15 characters, not shown)',
    );
  });
});

describe('cluster-shaped connection settings', () => {
  const cluster = z.object({
    DATABASE_URL: env.databaseUrl,
    NATS_URL: env.natsUrl,
    ...redisEnv,
    ...busEnv,
  });

  it('takes a multi-host PostgreSQL URL, several NATS seeds and Redis Sentinels', () => {
    const config = loadConfig(cluster, {
      DATABASE_URL:
        'postgres://app:pw@10.0.0.1:5432,db-2.internal:5433/lockdrop?target_session_attrs=read-write',
      NATS_URL: 'nats://n1:4222, nats://n2:4222',
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26379',
      REDIS_SENTINEL_NAME: 'lockdrop',
      BUS_STREAM_REPLICAS: '3',
    });
    expect(config.REDIS_SENTINELS).toEqual([
      { host: 'sentinel-0', port: 26379 },
      { host: 'sentinel-1', port: 26379 },
    ]);
    expect(config.BUS_STREAM_REPLICAS).toBe(3);
  });

  it('defaults to one server of each', () => {
    const config = loadConfig(cluster, {});
    expect(config.REDIS_SENTINELS).toBeUndefined();
    expect(config).toMatchObject({ REDIS_SENTINEL_NAME: 'mymaster', BUS_STREAM_REPLICAS: 1 });
  });

  it('refuses a host list with an empty or malformed member', () => {
    for (const [key, value] of [
      ['DATABASE_URL', 'postgres://h1,,h2/db'],
      ['DATABASE_URL', 'postgres://h1:5432,h2:port/db'],
      ['NATS_URL', 'nats://n1:4222,http://n2'],
      ['REDIS_SENTINELS', 'sentinel-0'],
      ['BUS_STREAM_REPLICAS', '0'],
    ] as const)
      expect(() => loadConfig(cluster, { [key]: value }), value).toThrow(key);
  });

  it('turns the Redis settings into a standalone or a Sentinel connection', () => {
    const redis = z.object(redisEnv);
    expect(
      redisConnectionOptions(loadConfig(redis, { REDIS_URL: 'redis://:pw@cache:6380/2' })),
    ).toMatchObject({ host: 'cache', port: 6380, password: 'pw', db: 2 });
    const viaSentinels = redisConnectionOptions(
      loadConfig(redis, {
        REDIS_URL: 'rediss://:pw@ignored/1',
        REDIS_SENTINELS: 's0:26379,s1:26379',
        REDIS_SENTINEL_NAME: 'lockdrop',
      }),
    );
    expect(viaSentinels).toMatchObject({
      sentinels: [
        { host: 's0', port: 26379 },
        { host: 's1', port: 26379 },
      ],
      name: 'lockdrop',
      password: 'pw',
      db: 1,
      tls: {},
      enableTLSForSentinelMode: true,
    });
    expect(viaSentinels.host).toBeUndefined();
    expect(viaSentinels.reconnectOnError!(new Error("READONLY You can't write"))).toBe(2);
  });
});
