import { DEFAULT_PROCESSOR_FEE_BPS } from '@lockdrop/plans';

/**
 * The processing fee the e2e stack's checkout counts. tools/e2e.mjs sets PROCESSOR_FEE_BPS to a
 * rate other than the shipped default, so the suite proves the pricing pages, the calculator
 * and the seller's figures follow the deployment's configured rate, not a copy of the default.
 */
export const PROCESSOR_FEE_BPS = Number(process.env.PROCESSOR_FEE_BPS ?? DEFAULT_PROCESSOR_FEE_BPS);
