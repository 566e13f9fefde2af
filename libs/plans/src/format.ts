import type { Plan } from './plans.js';

/** 500 → "5%", 350 → "3.5%", 9150 → "91.5%". */
export function formatBps(bps: number): string {
  return `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** Binary units, as file pickers show them: 50 MB, 1 GB. */
export function formatFileSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * What the monthly upload allowance counts (issue 29, item 12), said wherever the allowance is:
 * every file, as delivery counts it — a product of 5 files uses 5. A product holds up to 20
 * files, so a plan's allowance, not the product, is what limits a big product.
 */
export const UPLOADS_COUNT_FILES =
  'Every file you upload counts as one upload, including each file of a product with several.';

export function formatUploads(plan: Plan): string {
  return plan.uploadsPerMonth === null
    ? 'Unlimited uploads'
    : `${plan.uploadsPerMonth} uploads/month`;
}

const ANALYTICS_LABEL: Record<Plan['analytics'], string> = {
  basic: 'Basic analytics',
  enhanced: 'Enhanced analytics',
  advanced: 'Advanced analytics',
  premium: 'Premium analytics',
};

/** Plan features as display lines, derived from the table so no page restates a figure. */
export function planFeatureLines(plan: Plan): string[] {
  const lines = [
    formatUploads(plan),
    `${formatBps(plan.platformFeeBps)} platform fee`,
    `${formatFileSize(plan.maxFileBytes)} max file size`,
    ANALYTICS_LABEL[plan.analytics],
  ];
  if (plan.customBranding) lines.push('Custom branding');
  if (plan.teamSeats === null) lines.push('Unlimited team members');
  else if (plan.teamSeats > 0) lines.push(`Team up to ${plan.teamSeats}`);
  if (plan.customDomain) lines.push('Custom domain');
  if (plan.apiAccess) lines.push('API access');
  return lines;
}
