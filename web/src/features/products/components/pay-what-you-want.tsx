import { useId } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

interface PayWhatYouWantProps {
  /** null: a fixed price. */
  minimumPrice: string | null;
  onChange: (minimumPrice: string | null) => void;
  /** What is wrong with the minimum, shown under it. */
  error?: string | null;
}

/** One-time products: the buyer names the amount, at least the minimum (0 allowed). */
export function PayWhatYouWant({ minimumPrice, onChange, error }: PayWhatYouWantProps) {
  const id = useId();
  const enabled = minimumPrice !== null;
  return (
    <div className="space-y-3">
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(event) => onChange(event.target.checked ? '0' : null)}
            aria-describedby={`${id}-hint`}
            className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
          />
          Let buyers pay what they want
        </label>
        <p id={`${id}-hint`} className="mt-1 pl-6 text-sm text-slate-600">
          The price above becomes the suggested price; buyers may pay more, or less down to your
          minimum.
        </p>
      </div>
      {enabled && (
        <Field
          label="Minimum price"
          hint="0 lets buyers get it for free."
          error={error}
          className="sm:w-1/2"
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            value={minimumPrice}
            onChange={(event) => onChange(event.target.value)}
            placeholder="0.00"
          />
        </Field>
      )}
    </div>
  );
}
