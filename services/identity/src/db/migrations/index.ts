import type { Migration } from '@lockdrop/db';
import { mailOutboxMigrations } from '@lockdrop/mailer';
import { accounts } from './0001_accounts.js';
import { payoutMethodOnly } from './0002_payout_method_only.js';
import { apiKeys } from './0020_api_keys.js';
import { reauthentication } from './0060_reauthentication.js';
import { mfaRecoveryCodes } from './0070_mfa_recovery_codes.js';
import { storeTeams } from './0080_store_teams.js';
import { storeOwnershipAndSeats } from './0090_store_ownership_and_seats.js';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  ...mailOutboxMigrations,
  accounts,
  payoutMethodOnly,
  apiKeys,
  reauthentication,
  mfaRecoveryCodes,
  storeTeams,
  storeOwnershipAndSeats,
];
