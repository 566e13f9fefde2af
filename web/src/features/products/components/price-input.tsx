import { Input } from '@/components/ui/input';

/** A product's price in major units, as typed (spec §5: numeric, step 0.01, min 0.01). */
export function PriceInput({
  value,
  onChange,
}: {
  value: string;
  onChange: (price: string) => void;
}) {
  return (
    <Input
      type="number"
      inputMode="decimal"
      required
      min={0.01}
      step={0.01}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder="0.00"
    />
  );
}
