import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/index.js';

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
