import { authPlugin, createTokenVerifier, type TokenVerifier } from '@lockdrop/auth';
import type { Migration } from '@lockdrop/db';
import { createHttpServer, type HttpServer } from '@lockdrop/http';
import { Counter } from 'prom-client';
import {
  startInfrastructure,
  type Infrastructure,
  type Prune,
  type SharedSchema,
} from './infrastructure.js';

/** The part of a service's config (see `serviceEnv`) this factory reads. */
interface ServiceConfig {
  LOG_LEVEL: string;
  DATABASE_URL: string;
  DATABASE_ADMIN_URL?: string | undefined;
  NATS_URL: string;
  BUS_NAMESPACE: string;
  JWKS_URL: string;
}

export interface ServiceAppOptions {
  name: string;
  config: ServiceConfig;
  migrations: Migration[];
  /** Defaults to verifying against `config.JWKS_URL`; identity passes its own keys. */
  verifier?: TokenVerifier;
  /** Service-specific pruning when the worker announces `retention.due`. */
  prune?: Prune;
  /** Schemas shared with other services (the development mailbox), migrated and granted too. */
  sharedSchemas?: SharedSchema[];
}

/**
 * The HTTP server plus infrastructure every domain service starts with: its migrated schema,
 * the bus with the outbox relay, token verification, and readiness probes for each.
 * Closing the app closes the infrastructure after in-flight requests finish.
 */
export async function createServiceApp(
  options: ServiceAppOptions,
): Promise<{ app: HttpServer; infra: Infrastructure }> {
  const { config } = options;
  const app = await createHttpServer({
    name: options.name,
    logLevel: config.LOG_LEVEL,
    // Services sit behind the gateway on loopback or a private network; only such hops may set
    // x-forwarded-for, so a client reaching a service directly cannot pick its own IP.
    trustProxy: 'loopback,linklocal,uniquelocal',
  });
  const deadLetters = new Counter({
    name: 'bus_dead_letters_total',
    help: 'Events moved to the dead-letter subject, by consumer (replay: npm run dlq)',
    labelNames: ['consumer'],
    registers: [app.metricsRegistry],
  });
  const infra = await startInfrastructure({
    name: options.name,
    databaseUrl: config.DATABASE_URL,
    adminDatabaseUrl: config.DATABASE_ADMIN_URL,
    sharedSchemas: options.sharedSchemas,
    natsUrl: config.NATS_URL,
    busNamespace: config.BUS_NAMESPACE,
    migrations: options.migrations,
    logger: app.log,
    onDeadLetter: (consumer) => deadLetters.inc({ consumer }),
    prune: options.prune,
  });
  app.addHook('onClose', () => infra.close());
  for (const [name, check] of Object.entries(infra.readiness)) app.addReadinessCheck(name, check);
  await app.register(authPlugin, {
    verifier: options.verifier ?? createTokenVerifier({ jwksUrl: config.JWKS_URL }),
  });
  return { app, infra };
}
