import { DEFAULT_PROCESSOR_FEE_BPS, formatBps } from '@lockdrop/plans';

export function ProcessorFeeNote() {
  return (
    <p className="mt-8 text-center text-sm text-slate-500">
      Prices in US dollars. The payment provider charges a processing fee of{' '}
      <span data-plan-figure="processor-fee">{formatBps(DEFAULT_PROCESSOR_FEE_BPS)}</span> per sale,
      on top of the platform fee.
    </p>
  );
}
