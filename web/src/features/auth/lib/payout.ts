import type { PayoutDetails } from '../api/get-session';

export type PayoutMethod = PayoutDetails['method'];

export interface PayoutOption {
  method: PayoutMethod | 'paypal' | 'stripe';
  label: string;
  description: string;
  comingSoon?: boolean;
}

/** Spec §3: bank, Payoneer and Wise; PayPal and Stripe are shown as coming soon and cannot be chosen. */
export const payoutOptions: PayoutOption[] = [
  { method: 'bank', label: 'Bank transfer', description: 'Paid to your bank account' },
  { method: 'payoneer', label: 'Payoneer', description: 'Paid to your Payoneer e-mail' },
  { method: 'wise', label: 'Wise', description: 'Paid to your Wise account' },
  { method: 'paypal', label: 'PayPal', description: 'Coming soon', comingSoon: true },
  { method: 'stripe', label: 'Stripe', description: 'Coming soon', comingSoon: true },
];

export const payoutFields: Record<PayoutMethod, { name: string; label: string; type?: string }[]> =
  {
    bank: [
      { name: 'bankName', label: 'Bank name' },
      { name: 'accountNumber', label: 'Account number' },
      { name: 'accountHolderName', label: 'Account holder name' },
    ],
    payoneer: [{ name: 'email', label: 'Payoneer e-mail', type: 'email' }],
    wise: [
      { name: 'email', label: 'Wise e-mail', type: 'email' },
      { name: 'accountId', label: 'Wise account ID' },
    ],
  };

export interface PayoutDraft {
  method: PayoutMethod | null;
  values: Record<string, string>;
}

export function draftOf(details: PayoutDetails | null | undefined): PayoutDraft {
  if (!details) return { method: null, values: {} };
  const { method, ...values } = details;
  return { method, values: values as Record<string, string> };
}

/** The details to save, or the fields still empty. */
export function payoutDetailsOf(
  draft: PayoutDraft,
): { details: PayoutDetails } | { missing: Record<string, string> } | null {
  if (!draft.method) return null;
  const fields = payoutFields[draft.method];
  const missing = fields.filter((field) => !draft.values[field.name]?.trim());
  if (missing.length > 0) {
    return {
      missing: Object.fromEntries(
        missing.map((field) => [field.name, `${field.label} is required`]),
      ),
    };
  }
  const values = Object.fromEntries(
    fields.map((field) => [field.name, draft.values[field.name]!.trim()]),
  );
  return { details: { method: draft.method, ...values } as PayoutDetails };
}
