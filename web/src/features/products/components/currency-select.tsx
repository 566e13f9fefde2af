import { AlertTriangle } from 'lucide-react';
import { useCurrencies } from '../api/get-currencies';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';

interface CurrencySelectProps {
  id: string;
  label: string;
  value: string;
  onChange: (currency: string) => void;
  className?: string;
}

/** Spec §8: a pulsing placeholder while loading; a red warning and the fallback list on error. */
export function CurrencySelect({
  id,
  label,
  value,
  onChange,
  className = '',
}: CurrencySelectProps) {
  const { currencies, isPending, isError } = useCurrencies();
  const options = currencies.includes(value) ? currencies : [value, ...currencies];
  return (
    <Field label={label} id={id} className={className}>
      {isPending ? (
        // The same control, showing the one currency known so far: exactly the height the full
        // list will have, so nothing on the page moves when it arrives (CLS).
        <Select value={value} disabled aria-busy="true" onChange={() => undefined}>
          <option value={value}>{value}</option>
        </Select>
      ) : (
        <Select value={value} onChange={(event) => onChange(event.target.value)}>
          {options.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
      )}
      {isError && (
        <p
          role="alert"
          className="mt-2 flex items-start gap-2 rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
        >
          <AlertTriangle className="mt-0.5 size-4 flex-none" aria-hidden="true" />
          Failed to load currency data. Showing the default currencies.
        </p>
      )}
    </Field>
  );
}
