import { useId } from 'react';
import { fieldClass, labelClass } from './field-styles';

interface AmountFieldProps {
  value: string;
  onChange: (value: string) => void;
  currency: string;
  /** The least the buyer may pay, in `currency`. */
  minimum: { amountMinor: number; formatted: string };
  problem: string | null;
}

/** Pay what you want: 'Name your price', prefilled with the suggested price. */
export function AmountField({ value, onChange, currency, minimum, problem }: AmountFieldProps) {
  const id = useId();
  return (
    <div className="mt-4">
      <label htmlFor={`${id}-amount`} className={labelClass}>
        Name your price ({currency})
      </label>
      <input
        id={`${id}-amount`}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-amount-hint${problem ? ` ${id}-amount-problem` : ''}`}
        className={fieldClass(problem !== null)}
      />
      <p id={`${id}-amount-hint`} className="mt-1 text-sm text-slate-600">
        {minimum.amountMinor === 0 ? 'Any amount, even zero' : `Minimum ${minimum.formatted}`}
      </p>
      {problem && (
        <p id={`${id}-amount-problem`} role="alert" className="mt-1 text-sm text-rose-700">
          {problem}
        </p>
      )}
    </div>
  );
}
