import type { CheckoutStarted, StartCheckoutRequest } from '@lockdrop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';

export type CheckoutInput = StartCheckoutRequest;

export const startCheckout = (input: CheckoutInput) =>
  api<CheckoutStarted>('/api/checkout', { method: 'POST', body: input });

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
