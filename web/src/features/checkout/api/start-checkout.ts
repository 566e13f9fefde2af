import type { CheckoutStarted, StartCheckoutRequest } from '@lockdrop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { rememberCheckout } from '@/lib/checkout-memory';
import { notify } from '@/lib/toast';

export type CheckoutInput = StartCheckoutRequest;

export const startCheckout = (input: CheckoutInput) =>
  api<CheckoutStarted>('/api/checkout', { method: 'POST', body: input });

/**
 * Sends the buyer to the provider's hosted payment page (ARCHITECTURE §3 step 1), or straight to
 * the success page when nothing is to be paid (or, for a free claim by an address that has not
 * proven itself, nowhere: `data.confirmEmail` and the card asks them to confirm by e-mail). `showInline` takes the refusals the card shows
 * under a field (a discount code, a pay-what-you-want amount) and returns true for those.
 */
export function useStartCheckout({
  showInline,
}: { showInline?: (error: ApiError) => boolean } = {}) {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ link, txRef, confirmEmail }, input) => {
      // A free claim by an address that has not proven itself: the card says to check the inbox.
      if (confirmEmail) return;
      if (!link) return notify.error('Failed to start checkout');
      rememberCheckout({ txRef, productId: input.productId, email: input.buyerEmail });
      window.location.assign(link);
    },
    // The e-mail and 'not published' answers say what to fix; the rest is the spec's text.
    onError: (error) => {
      if (error instanceof ApiError && showInline?.(error)) return;
      notify.error(
        error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error
          : 'Failed to start checkout',
      );
    },
  });
}
