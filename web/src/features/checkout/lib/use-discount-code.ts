import { useState } from 'react';
import { ApiError } from '@/lib/api';
import { useQuote } from '../api/get-quote';

const messageOf = (error: Error) =>
  error instanceof ApiError ? error.message : 'Could not check this code. Please try again.';

/**
 * The discount code field's state: what is typed, the code applied (quoted by payments), and
 * the server's words when it refuses the code, at the quote or later at checkout.
 */
export function useDiscountCode(
  productId: string,
  currency: string,
  initialCode: string | undefined,
  enabled: boolean,
) {
  const [input, setInput] = useState(initialCode?.trim() ?? '');
  const [applied, setApplied] = useState<string | null>(initialCode?.trim() || null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // A quote never says whether an address has used a code (that would tell anyone who typed
  // it); checkout enforces a per-buyer limit and `refuse` shows its answer.
  const quote = useQuote(
    { productId, currency, discountCode: applied ?? '' },
    enabled && applied !== null,
  );
  const problem = refusal ?? (quote.error ? messageOf(quote.error) : null);
  const accepted =
    enabled && applied !== null && !problem && quote.data?.discount ? quote.data : null;

  return {
    input,
    setInput,
    apply() {
      const code = input.trim();
      setRefusal(null);
      if (code && code === applied) void quote.refetch();
      setApplied(code || null);
    },
    remove() {
      setInput('');
      setApplied(null);
      setRefusal(null);
    },
    /** Checkout refused the code after all (e.g. this buyer has used it up). */
    refuse: setRefusal,
    checking: enabled && applied !== null && quote.isFetching,
    problem: enabled ? problem : null,
    /** The accepted code's quote, or null: the list price stands. */
    quote: accepted,
    code: accepted ? (applied ?? undefined) : undefined,
  };
}
