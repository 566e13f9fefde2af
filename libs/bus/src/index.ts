export { connectBus, type Bus, type BusOptions } from './connection.js';
export { type SubscribeOptions, type Subscription } from './subscription.js';
export { type Watch, type WatchOptions } from './watch.js';
export { ensureStreams } from './streams.js';
export {
  natsAuth,
  natsAuthFromEnv,
  serverList,
  streamReplicasFromEnv,
  type NatsAuthOptions,
} from './servers.js';
export {
  busPermissions,
  busRoleNames,
  busRoles,
  envBusUsers,
  natsAuthorization,
  natsHelmValues,
  NATS_PASSWORDS_SECRET,
  passwordVariable,
  randomBusUsers,
  type BusRole,
  type BusRoleName,
  type BusUser,
  type NatsPermissions,
  type ServiceRole,
} from './permissions.js';
export {
  streamNames,
  eventSubject,
  deadLetterSubject,
  commandSubject,
  inboxPrefix,
  type EventFilter,
  type EventMatching,
} from './naming.js';
export { busHeaders } from './headers.js';
export { withClusterRetry } from './jetstream-api.js';
export { CommandFailedError } from './commands.js';
export { PoisonEventError, classifyFailure, type FailureKind } from './failures.js';
export { busMigrations } from './migrations.js';
export { changeWithEvents, enqueueEvent, enqueueEvents } from './outbox.js';
export {
  startOutboxRelay,
  type EventPublisher,
  type OutboxRelay,
  type OutboxRelayOptions,
  type RelayOutcome,
} from './outbox-relay.js';
export { type Logger } from './logger.js';
export { openDeadLetters, type DeadLetter } from './dead-letters.js';
export {
  pruneBusRecords,
  EVENT_STREAM_MAX_AGE_DAYS,
  PROCESSED_EVENT_RETENTION_DAYS,
  PUBLISHED_OUTBOX_RETENTION_DAYS,
} from './retention.js';
export { applyPlanChange, findSellerPlan, subscribeToPlanChanges } from './seller-plans.js';
