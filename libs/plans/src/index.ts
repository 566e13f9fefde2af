export {
  PLANS,
  PLAN_IDS,
  DEFAULT_PROCESSOR_FEE_BPS,
  isPlanId,
  planById,
  PLAN_CURRENCIES,
  isPlanCurrency,
  planPriceMinor,
  type PlanCurrency,
  type Plan,
  type PlanId,
  type AnalyticsTier,
} from './plans.js';
export {
  bpsOfMinor,
  platformFeeMinor,
  processorFeeMinor,
  earningsBreakdown,
  splitSale,
  type SaleSplit,
  nominalKeptBps,
  yearlySavingsPercent,
  type EarningsBreakdown,
} from './fees.js';
export {
  formatBps,
  formatFileSize,
  formatUploads,
  planFeatureLines,
  UPLOADS_COUNT_FILES,
} from './format.js';
