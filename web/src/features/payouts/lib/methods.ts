import type { PayoutMethod } from '@lockdrop/contracts';

export interface PayoutOption {
  method: PayoutMethod | 'paypal' | 'stripe';
  label: string;
  description: string;
  comingSoon?: boolean;
}

/** Spec §3: bank, Payoneer and Wise; PayPal and Stripe are shown as coming soon and cannot be chosen. */
export const payoutOptions: PayoutOption[] = [
  { method: 'bank', label: 'Bank transfer', description: 'Paid to your Nigerian bank account' },
  { method: 'payoneer', label: 'Payoneer', description: 'Paid to your Payoneer e-mail' },
  { method: 'wise', label: 'Wise', description: 'Paid to your Wise account' },
  { method: 'paypal', label: 'PayPal', description: 'Coming soon', comingSoon: true },
  { method: 'stripe', label: 'Stripe', description: 'Coming soon', comingSoon: true },
];

export const isChoosable = (method: PayoutOption['method']): method is PayoutMethod =>
  method === 'bank' || method === 'payoneer' || method === 'wise';
