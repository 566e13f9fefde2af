import { useId } from 'react';
import type { SellerProduct } from '../types';
import { labelClass } from '@/components/ui/field';
import { choiceClass } from '@/components/ui/choice';

/** Payments refuses codes on these at checkout; the seller sees why here. */
const codesDoNotApply = (product: SellerProduct) =>
  product.payWhatYouWant
    ? 'pay what you want: codes do not apply'
    : product.pricing.type === 'recurring'
      ? 'subscription: codes do not apply'
      : null;

interface ProductChoiceProps {
  products: SellerProduct[];
  allProducts: boolean;
  productIds: string[];
  onChange: (choice: { allProducts: boolean; productIds: string[] }) => void;
  /** 'Choose at least one product…': shown under the list, whose first box takes the focus. */
  error?: string | null;
}

/** 'All products' (now and later) or the products ticked here. */
export function ProductChoice({
  products,
  allProducts,
  productIds,
  onChange,
  error,
}: ProductChoiceProps) {
  const id = useId();
  const toggle = (productId: string, checked: boolean) =>
    onChange({
      allProducts,
      productIds: checked
        ? [...productIds, productId]
        : productIds.filter((chosen) => chosen !== productId),
    });
  return (
    <fieldset>
      <legend className={labelClass}>Applies to</legend>
      <div className="mt-2 grid grid-cols-2 gap-2">
        {[
          { all: true, label: 'All products' },
          { all: false, label: 'Chosen products' },
        ].map((choice) => (
          <label key={choice.label} className={choiceClass}>
            <input
              type="radio"
              name={`${id}-scope`}
              checked={allProducts === choice.all}
              onChange={() => onChange({ allProducts: choice.all, productIds })}
              className="sr-only"
            />
            {choice.label}
          </label>
        ))}
      </div>
      {!allProducts && (
        <div className="mt-3 space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
          {products.length === 0 && (
            <p className="text-sm text-slate-600">You have no products yet.</p>
          )}
          {products.map((product, index) => (
            <label key={product.id} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                aria-invalid={error && index === 0 ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                checked={productIds.includes(product.id)}
                onChange={(event) => toggle(product.id, event.target.checked)}
                className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
              />
              {product.title}
              {codesDoNotApply(product) && (
                <span className="text-xs text-slate-500">({codesDoNotApply(product)})</span>
              )}
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
