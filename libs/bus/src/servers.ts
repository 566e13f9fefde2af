import { busEnv, loadConfig } from '@lockdrop/config';
import { z } from 'zod';

/** `nats://a:4222,nats://b:4222` → each server, so the client can start from any one that answers. */
export function serverList(url: string): string[] {
  return url
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * BUS_STREAM_REPLICAS (@lockdrop/config's busEnv), read where the bus connects so that every
 * process connecting a bus (each service, the gateway's storefront, the tools) keeps streams at
 * the same replica count without each passing it along.
 */
export function streamReplicasFromEnv(env?: Record<string, string | undefined>): number {
  return loadConfig(z.object(busEnv), env).BUS_STREAM_REPLICAS;
}
