import { randomBytes } from 'node:crypto';

/** URLs of the real infrastructure tests run against (set by the vitest global setup). */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
};

/** A fresh bus namespace (stream and subject prefix) so parallel test files never share streams. */
export function testNamespace(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

/**
 * The env a service under test starts from: its own database and bus namespace on the real
 * infrastructure, identity's keys when given, quiet logs (TEST_LOG_LEVEL=info shows them).
 * Each test adds what is particular to it.
 */
export function serviceTestEnv(options: {
  databaseUrl: string;
  namespace: string;
  jwksUrl?: string;
}): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl,
    NATS_URL: testEnv.natsUrl,
    REDIS_URL: testEnv.redisUrl,
    BUS_NAMESPACE: options.namespace,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(options.jwksUrl ? { JWKS_URL: options.jwksUrl } : {}),
  };
}
