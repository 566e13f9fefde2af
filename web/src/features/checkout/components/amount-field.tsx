import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

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
  return (
    <Field
      label={`Name your price (${currency})`}
      hint={minimum.amountMinor === 0 ? 'Any amount, even zero' : `Minimum ${minimum.formatted}`}
      error={problem}
      className="mt-4"
    >
      <Input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
