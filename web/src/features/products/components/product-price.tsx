import { formatMoney } from '@lockdrop/money';
import { AlertTriangle } from 'lucide-react';
import { useId } from 'react';
import { payWhatYouWantLabel, priceLabel } from '@/lib/pricing';
import { useExchangeRates } from '../api/get-exchange-rates';
import { ratesAsOfNote } from '../lib/exchange-rates';
import type { ProductDetail } from '../types';
import { CurrencySelect } from './currency-select';

interface ProductPriceProps {
  product: ProductDetail;
  /** The visitor's choice; the display falls back to the product's currency when no rate exists. */
  selectedCurrency: string | undefined;
  onCurrencyChange: (currency: string) => void;
}

/**
 * The price in the chosen currency, with 'Show in' and the 'Originally' line (spec §2), and
 * how old the rates are when they are over a day old; spec §8's error when they cannot load.
 */
export function ProductPrice({ product, selectedCurrency, onCurrencyChange }: ProductPriceProps) {
  const id = useId();
  const { display, displayMinimum } = product;
  const original = formatMoney(product.priceMinor, product.currency);
  const showingOtherCurrency =
    selectedCurrency !== undefined && selectedCurrency !== product.currency;
  const rates = useExchangeRates(showingOtherCurrency);
  const asOfNote = display.converted ? ratesAsOfNote(rates.data) : null;
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        {displayMinimum ? (
          <>
            <p className="text-3xl font-bold tracking-tight text-slate-900">
              {payWhatYouWantLabel(displayMinimum.amountMinor, displayMinimum.formatted)}
            </p>
            <p className="mt-1 text-sm text-slate-600">Suggested price {display.formatted}</p>
          </>
        ) : (
          <p className="text-3xl font-bold tracking-tight text-slate-900">
            {priceLabel(display.formatted, product.pricing)}
          </p>
        )}
        {display.converted && (
          <p className="mt-1 text-sm text-slate-500">
            Originally {displayMinimum ? 'suggested ' : ''}
            {/* The sign says the currency once (₦2,500), as the price above does. */}
            {priceLabel(original, product.pricing)}
          </p>
        )}
        {asOfNote && <p className="mt-1 text-xs text-slate-500">{asOfNote}</p>}
        {display.warning && (
          <p className="mt-2 flex items-center gap-1.5 text-sm text-amber-700" role="status">
            <AlertTriangle className="size-4" aria-hidden="true" /> {display.warning.message}
          </p>
        )}
        {showingOtherCurrency && rates.isError && (
          <p
            role="alert"
            className="mt-2 flex items-start gap-2 rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
          >
            <AlertTriangle className="mt-0.5 size-4 flex-none" aria-hidden="true" />
            Failed to load exchange rates
          </p>
        )}
      </div>
      <CurrencySelect
        id={`${id}-show-in`}
        label="Show in"
        value={selectedCurrency ?? display.currency}
        onChange={onCurrencyChange}
        className="w-32"
      />
    </div>
  );
}
