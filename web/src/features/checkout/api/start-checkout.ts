import { useMutation } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';

export interface CheckoutInput {
  productId: string;
  buyerEmail: string;
  /** The currency the buyer is looking at; payments converts and records the rate. */
  currency?: string;
}

export const startCheckout = (input: CheckoutInput) =>
  api<{ link: string; txRef: string }>('/api/checkout', { method: 'POST', body: input });

/** Sends the buyer to the provider's hosted payment page (ARCHITECTURE §3 step 1). */
export function useStartCheckout() {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ link }) => {
      if (!link) return notify.error('Failed to start checkout');
      window.location.assign(link);
    },
    // The e-mail and 'not published' answers say what to fix; the rest is the spec's text.
    onError: (error) =>
      notify.error(
        error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error
          : 'Failed to start checkout',
      ),
  });
}
