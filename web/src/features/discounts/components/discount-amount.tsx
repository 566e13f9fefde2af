import type { DiscountKind } from '@lockdrop/contracts';
import { useId } from 'react';
import type { DiscountFormValues } from '../lib/discount-form';
import type { CurrencySelectComponent } from '../types';
import { Field, labelClass } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { choiceClass } from '@/components/ui/choice';

type AmountValues = Pick<DiscountFormValues, 'kind' | 'percentOff' | 'amountOff' | 'currency'>;

interface DiscountAmountProps {
  values: AmountValues;
  onChange: (change: Partial<AmountValues>) => void;
  CurrencySelect: CurrencySelectComponent;
  /** What is wrong with the percentage or amount, shown under it. */
  error?: string | null;
}

const KINDS: { value: DiscountKind; label: string }[] = [
  { value: 'percent', label: 'Percentage' },
  { value: 'fixed', label: 'Fixed amount' },
];

/** A percentage off, or an amount off in one currency (then only that currency's products). */
export function DiscountAmount({ values, onChange, CurrencySelect, error }: DiscountAmountProps) {
  const id = useId();
  return (
    <>
      <fieldset>
        <legend className={labelClass}>Type</legend>
        <div className="mt-2 grid grid-cols-2 gap-2">
          {KINDS.map((kind) => (
            <label key={kind.value} className={choiceClass}>
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind.value}
                checked={values.kind === kind.value}
                onChange={() => onChange({ kind: kind.value })}
                className="sr-only"
              />
              {kind.label}
            </label>
          ))}
        </div>
      </fieldset>
      {values.kind === 'percent' ? (
        <Field label="Percentage off" error={error}>
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            value={values.percentOff}
            onChange={(event) => onChange({ percentOff: event.target.value })}
            placeholder="20"
          />
        </Field>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2">
          <Field label="Amount off" error={error}>
            <Input
              type="text"
              inputMode="decimal"
              value={values.amountOff}
              onChange={(event) => onChange({ amountOff: event.target.value })}
              placeholder="5.00"
            />
          </Field>
          <CurrencySelect
            id={`${id}-currency`}
            label="Currency"
            value={values.currency}
            onChange={(currency) => onChange({ currency })}
          />
          <p className="text-sm text-slate-600 sm:col-span-2">
            A fixed amount applies only to products priced in {values.currency}.
          </p>
        </div>
      )}
    </>
  );
}
