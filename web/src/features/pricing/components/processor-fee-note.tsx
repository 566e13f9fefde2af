import { formatBps } from '@lockdrop/plans';
import { useProcessorFeeBps } from '@/lib/payment-mode';

export function ProcessorFeeNote() {
  const processorFeeBps = useProcessorFeeBps();
  return (
    <p className="mt-8 text-center text-sm text-slate-500">
      Prices in US dollars. The payment provider charges a processing fee of{' '}
      <span data-plan-figure="processor-fee">{formatBps(processorFeeBps)}</span> per sale, on top of
      the platform fee.
    </p>
  );
}
