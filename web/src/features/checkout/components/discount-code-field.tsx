import type { CheckoutQuote } from '@lockdrop/contracts';
import { BadgePercent } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

interface DiscountCodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  onApply: () => void;
  onRemove: () => void;
  checking: boolean;
  /** The server's words for a code it refused. */
  problem: string | null;
  /** The accepted code's quote: its label, the list price and the new total. */
  quote: CheckoutQuote | null;
  /** "$8.00" → "$8.00 per month" for a recurring price. */
  labelPrice: (formatted: string) => string;
}

/** 'Discount code' with Apply; an accepted code shows its label and the price it brings. */
export function DiscountCodeField(props: DiscountCodeFieldProps) {
  const { value, onChange, onApply, onRemove, checking, problem, quote, labelPrice } = props;
  const discount = quote?.discount ?? null;
  // Enter applies the code rather than submitting the purchase.
  const applyOnEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onApply();
  };
  return (
    <div className="mt-4">
      <Field label="Discount code" error={problem}>
        <div className="flex items-start gap-2">
          <Input
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={applyOnEnter}
            readOnly={discount !== null}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="font-mono uppercase read-only:bg-slate-50"
          />
          {discount ? (
            <Button variant="secondary" className="mt-2" onClick={onRemove}>
              Remove
            </Button>
          ) : (
            <Button
              variant="secondary"
              className="mt-2"
              onClick={onApply}
              disabled={checking || !value.trim()}
            >
              {checking ? 'Checking…' : 'Apply'}
            </Button>
          )}
        </div>
      </Field>
      {quote && discount && (
        <p
          role="status"
          className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          <BadgePercent className="size-4 flex-none text-emerald-700" aria-hidden="true" />
          <span className="font-semibold">{discount.label}</span>
          <span className="ml-auto">
            <span className="sr-only">Was </span>
            <s className="text-slate-500">{labelPrice(quote.listPrice.formatted)}</s>
            <span className="sr-only">, now</span>{' '}
            <span className="font-semibold">{labelPrice(quote.total.formatted)}</span>
          </span>
        </p>
      )}
    </div>
  );
}
