import type { PriceDisplay } from '@lockdrop/contracts';
import { useState } from 'react';
import { readAmount } from './amount';

/**
 * Pay what you want: the typed amount (prefilled with the suggested price, and again when the
 * page switches currency) and the reason it is refused, if it is.
 */
export function useAmount(price: PriceDisplay, minimum: PriceDisplay | null) {
  const [text, setText] = useState(price.amount);
  const [currency, setCurrency] = useState(price.currency);
  const [problem, setProblem] = useState<string | null>(null);
  if (currency !== price.currency) {
    setCurrency(price.currency);
    setText(price.amount);
    setProblem(null);
  }
  return {
    text,
    change(value: string) {
      setText(value);
      setProblem(null);
    },
    problem,
    refuse: setProblem,
    reading: minimum ? readAmount(text, price.currency, minimum) : null,
  };
}
