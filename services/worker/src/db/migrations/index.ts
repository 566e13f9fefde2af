import type { Migration } from '@lockdrop/db';
import { mailOutboxMigrations } from '@lockdrop/mailer';
import { fxRateSets } from './0001_fx_rate_sets.js';
import { sandboxTransfers } from './0002_sandbox_transfers.js';
import { webhooks } from './0030_webhooks.js';
import { webhookEndpointModes } from './0050_webhook_endpoint_modes.js';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  ...mailOutboxMigrations,
  fxRateSets,
  sandboxTransfers,
  webhooks,
  webhookEndpointModes,
];
