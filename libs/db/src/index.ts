export { createPool, type Pool, type PoolClient, type Queryable } from './pool.js';
export { withTransaction } from './transaction.js';
export { migrate, type Migration } from './migrate.js';
export { pingDatabase } from './health.js';
export { ensureDatabase, dropDatabase, withDatabaseName, databaseNameOf } from './database.js';
export { grantServiceRole, credentialsOf } from './roles.js';
export { applyNewestSnapshot, applyTombstone, type ReadModelTable } from './read-model.js';
export { isOutage } from './outage.js';
export {
  parseDatabaseUrl,
  isMultiHost,
  connectClient,
  NoSuitableHostError,
  type TargetSessionAttrs,
} from './hosts.js';
