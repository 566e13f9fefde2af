import type { Bank } from '@lockdrop/contracts';

/**
 * Nigerian banks payouts can reach, with the codes Flutterwave's `GET /v3/banks/NG` and NIBSS
 * use (3-digit for commercial banks, 5- and 6-digit for microfinance and payment-service banks).
 * The sandbox lists exactly these, so test destinations look like real ones; the Flutterwave
 * provider answers them only when the provider is unreachable and nothing is cached yet.
 *
 * Each code was checked against at least two public lists of Flutterwave/NIBSS codes (issue 29,
 * item 10). Left out until a code can be confirmed: Globus, Paga, Titan Trust, Lotus and TAJ
 * (lists disagree or only one was found); Heritage Bank (its licence was revoked in June 2024).
 * The live list from Flutterwave is the authority; this is a fallback and a sandbox, never a
 * filter.
 */
export const NIGERIAN_BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '063', name: 'Access Bank (Diamond)' },
  { code: '023', name: 'Citibank Nigeria' },
  { code: '050', name: 'Ecobank Nigeria' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank of Nigeria' },
  { code: '214', name: 'First City Monument Bank (FCMB)' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '301', name: 'Jaiz Bank' },
  { code: '082', name: 'Keystone Bank' },
  { code: '50211', name: 'Kuda Bank' },
  { code: '50515', name: 'Moniepoint MFB' },
  { code: '999992', name: 'OPay' },
  { code: '999991', name: 'PalmPay' },
  { code: '076', name: 'Polaris Bank' },
  { code: '105', name: 'PremiumTrust Bank' },
  { code: '101', name: 'Providus Bank' },
  { code: '125', name: 'Rubies MFB' },
  { code: '221', name: 'Stanbic IBTC Bank' },
  { code: '068', name: 'Standard Chartered Bank' },
  { code: '232', name: 'Sterling Bank' },
  { code: '100', name: 'SunTrust Bank' },
  { code: '032', name: 'Union Bank of Nigeria' },
  { code: '033', name: 'United Bank For Africa' },
  { code: '215', name: 'Unity Bank' },
  { code: '566', name: 'VFD Microfinance Bank' },
  { code: '035', name: 'Wema Bank' },
  { code: '057', name: 'Zenith Bank' },
];
