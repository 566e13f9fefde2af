/**
 * Commitments the terms, refund and contact pages state (spec §9). Fees are not here: they come
 * from @lockdrop/plans.
 */
export const policies = {
  payoutBusinessDays: { min: 1, max: 3 },
  buyerRefundWindowHours: 24,
  annualPlanRefundDays: 30,
  liabilityCapMonths: 12,
  recordRetentionYears: 3,
  supportReplyHours: 24,
  billingReplyBusinessDays: 2,
  downloadLinkValidityHours: 1,
} as const;
