import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { DiscountFormValues } from '../lib/discount-form';
import { validationProblem, type DiscountField, type DiscountProblem } from '../lib/validation';
import type { CurrencySelectComponent, SellerProduct } from '../types';
import { DiscountAmount } from './discount-amount';
import { ProductChoice } from './product-choice';

interface DiscountFormProps {
  initial: DiscountFormValues;
  /** Editing a saved code (the submit button says so). */
  editing: boolean;
  products: SellerProduct[];
  CurrencySelect: CurrencySelectComponent;
  busy: boolean;
  onSubmit: (values: DiscountFormValues) => void;
  onCancel: () => void;
}

type TextField = 'code' | 'startsAt' | 'endsAt' | 'maxUses' | 'maxUsesPerBuyer';

export function DiscountForm({
  initial,
  editing,
  products,
  CurrencySelect,
  busy,
  onSubmit,
  onCancel,
}: DiscountFormProps) {
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState<DiscountProblem | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const change = (next: Partial<DiscountFormValues>) => {
    setValues((current) => ({ ...current, ...next }));
    setProblem(null);
  };
  const errorOf = (name: DiscountField) => (problem?.field === name ? problem.message : null);
  // Each refused submit takes the seller to the field that needs them.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problem]);
  const field = (name: TextField, label: string, type = 'text', hint?: string) => (
    <Field
      label={label}
      hint={hint}
      error={name === 'startsAt' ? null : errorOf(name as DiscountField)}
    >
      <Input
        type={type}
        min={type === 'number' ? 1 : undefined}
        step={type === 'number' ? 1 : undefined}
        value={values[name]}
        onChange={(event) => change({ [name]: event.target.value })}
      />
    </Field>
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validationProblem(values);
    setProblem(found);
    if (!found) onSubmit(values);
  }

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="space-y-6" aria-busy={busy}>
      {field('code', 'Code', 'text', 'Letters, digits, - and _; buyers may type it in any case.')}
      <DiscountAmount
        values={values}
        onChange={change}
        CurrencySelect={CurrencySelect}
        error={errorOf(values.kind === 'percent' ? 'percentOff' : 'amountOff')}
      />
      <ProductChoice
        products={products}
        allProducts={values.allProducts}
        productIds={values.productIds}
        onChange={change}
        error={errorOf('products')}
      />
      <div className="grid gap-6 sm:grid-cols-2">
        {field('startsAt', 'Starts (optional)', 'datetime-local')}
        {field('endsAt', 'Ends (optional)', 'datetime-local')}
        {field('maxUses', 'Total uses (optional)', 'number', 'Leave empty for no limit.')}
        {field('maxUsesPerBuyer', 'Uses per buyer (optional)', 'number')}
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <input
          type="checkbox"
          checked={values.active}
          onChange={(event) => change({ active: event.target.checked })}
          className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        Active
      </label>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : editing ? 'Save changes' : 'Create code'}
        </Button>
      </div>
    </form>
  );
}
