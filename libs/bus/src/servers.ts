import { busEnv, loadConfig, natsCredentialsComplete } from '@lockdrop/config';
import { z } from 'zod';
import { inboxPrefix } from './naming.js';

/** `nats://a:4222,nats://b:4222` → each server, so the client can start from any one that answers. */
export function serverList(url: string): string[] {
  return url
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

const busSettings = z.object(busEnv).refine(natsCredentialsComplete, {
  path: ['NATS_USER'],
  message: 'NATS_USER and NATS_PASSWORD go together: set both, or neither',
});

/**
 * BUS_STREAM_REPLICAS (@lockdrop/config's busEnv), read where the bus connects so that every
 * process connecting a bus (each service, the gateway's storefront, the tools) keeps streams at
 * the same replica count without each passing it along.
 */
export function streamReplicasFromEnv(env?: Record<string, string | undefined>): number {
  return loadConfig(busSettings, env).BUS_STREAM_REPLICAS;
}

/** What `connect()` takes to log in: nothing without NATS_USER, else the user and its own inbox. */
export interface NatsAuthOptions {
  user?: string;
  pass?: string;
  inboxPrefix?: string;
}

/**
 * NATS_USER and NATS_PASSWORD (busEnv), read where the bus connects like BUS_STREAM_REPLICAS.
 * With a user, replies come to `_INBOX_<user>.…`: its permissions let it read its own inbox
 * only, so one service cannot listen in on the answers another is waiting for.
 */
export function natsAuthFromEnv(env?: Record<string, string | undefined>): NatsAuthOptions {
  const { NATS_USER: user, NATS_PASSWORD: pass } = loadConfig(busSettings, env);
  return user && pass ? natsAuth(user, pass) : {};
}

export function natsAuth(user: string, pass: string): NatsAuthOptions {
  return { user, pass, inboxPrefix: inboxPrefix(user) };
}
