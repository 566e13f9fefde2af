/** The payouts feature's public surface: destinations, balances, payout history. */
export { PayoutDestinationCard, ConfirmPayoutNotice } from './components/payout-destination';
export { PayoutsPanel } from './components/payouts-panel';
export { usePayoutDestination, useRefreshPayouts } from './api/payouts';
