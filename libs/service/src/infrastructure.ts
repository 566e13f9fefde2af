import {
  busMigrations,
  connectBus,
  pruneBusRecords,
  startOutboxRelay,
  type Bus,
  type Logger as BusLogger,
} from '@lockdrop/bus';
import {
  createPool,
  credentialsOf,
  ensureDatabase,
  grantServiceRole,
  migrate,
  pingDatabase,
  type Migration,
  type Pool,
  type PoolClient,
} from '@lockdrop/db';
import type { ReadinessCheck } from '@lockdrop/http';

export interface InfrastructureOptions {
  /** Service name; also its Postgres schema. */
  name: string;
  databaseUrl: string;
  /** Runs migrations and grants DATABASE_URL's role its schemas (see serviceEnv). */
  adminDatabaseUrl?: string;
  /** Schemas this service shares with others (the development mailbox), migrated with its own. */
  sharedSchemas?: SharedSchema[];
  natsUrl: string;
  busNamespace: string;
  migrations: Migration[];
  logger: BusLogger;
  onDeadLetter?: (consumer: string) => void;
  /** The service's own pruning on `retention.due` (besides processed events and outbox rows). */
  prune?: Prune;
}

export interface SharedSchema {
  schema: string;
  migrations: Migration[];
}

/** Deletes a service's expired rows as of `dueAt`; returns counts per table for the log. */
export type Prune = (tx: PoolClient, dueAt: Date) => Promise<Record<string, number>>;

/** What a domain service runs on: its own schema, the bus, and the relay draining its outbox. */
export interface Infrastructure {
  pool: Pool;
  bus: Bus;
  readiness: Record<string, ReadinessCheck>;
  /** Stops the relay, drains the bus, closes the pool — in that order, so nothing is lost. */
  close(): Promise<void>;
}

export async function startInfrastructure(options: InfrastructureOptions): Promise<Infrastructure> {
  await migrateAndGrant(options);
  const pool = createPool({ connectionString: options.databaseUrl, schema: options.name });
  const bus = await connectBus({
    url: options.natsUrl,
    namespace: options.busNamespace,
    name: options.name,
    logger: options.logger,
    onDeadLetter: options.onDeadLetter,
  });
  const relay = startOutboxRelay({ pool, bus, logger: options.logger });
  // The worker's daily `retention.due`: every service prunes its own bookkeeping, in its schema.
  const retention = await bus.subscribe({
    consumer: `${options.name}.retention`,
    filter: 'retention.due',
    pool,
    handler: async (event, tx) => {
      const { dueAt } = event.data;
      const pruned = await pruneBusRecords(tx, new Date(dueAt));
      const own = (await options.prune?.(tx, new Date(dueAt))) ?? {};
      options.logger.info({ ...pruned, ...own }, 'pruned rows no one needs any more');
    },
  });
  return {
    pool,
    bus,
    readiness: {
      database: () => pingDatabase(pool),
      nats: () => bus.ping(),
    },
    async close() {
      await retention.stop();
      await relay.stop();
      await bus.close();
      await pool.end();
    },
  };
}

/**
 * Every schema a service migrates at start: its own (with the bus's outbox and processed-event
 * tables) and the ones it shares. Tests build their template databases from the same list.
 */
export function serviceSchemas(options: {
  name: string;
  migrations: Migration[];
  sharedSchemas?: SharedSchema[];
}): { schema: string; migrations: Migration[] }[] {
  return [
    { schema: options.name, migrations: [...busMigrations, ...options.migrations] },
    ...(options.sharedSchemas ?? []),
  ];
}

/**
 * One connection string (development): migrate with it. With an admin URL: migrate this
 * service's schema and its shared ones as admin, then grant DATABASE_URL's role rights on them
 * and nothing else; the service itself never holds DDL rights.
 */
async function migrateAndGrant(options: InfrastructureOptions): Promise<void> {
  const url = options.adminDatabaseUrl ?? options.databaseUrl;
  await ensureDatabase(url);
  const pool = createPool({ connectionString: url, schema: options.name, max: 2 });
  try {
    for (const { schema, migrations } of serviceSchemas(options))
      await migrate(pool, schema, migrations);
    if (
      options.adminDatabaseUrl &&
      credentialsOf(options.adminDatabaseUrl).user !== credentialsOf(options.databaseUrl).user
    ) {
      await grantServiceRole(pool, {
        serviceUrl: options.databaseUrl,
        schemas: [options.name, ...(options.sharedSchemas ?? []).map((shared) => shared.schema)],
      });
    }
  } finally {
    await pool.end();
  }
}
