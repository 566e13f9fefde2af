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
