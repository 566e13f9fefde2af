import { useQuery } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { paymentModeQueryOptions } from '@/lib/payment-mode';

/**
 * Shown wherever a buyer pays or sees what they paid while this deployment takes test payments
 * (the sandbox or Flutterwave test keys), so nobody mistakes a demo for a real charge.
 */
export function TestModeNotice({
  testMode,
  className = '',
}: {
  /** Known from the purchase itself; otherwise the deployment's current mode is asked. */
  testMode?: boolean;
  className?: string;
}) {
  const mode = useQuery({ ...paymentModeQueryOptions, enabled: testMode === undefined });
  if (!(testMode ?? mode.data?.testMode)) return null;
  return (
    <p
      role="note"
      data-testid="test-mode-notice"
      className={`flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800 ring-1 ring-amber-200 ${className}`}
    >
      <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
      Test payment — no real money moves.
    </p>
  );
}
