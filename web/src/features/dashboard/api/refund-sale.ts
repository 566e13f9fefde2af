import type { RefundAnswer } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';

/** POST /api/purchases/:id/refund: payments checks the seller and the refund window. */
export const refundSale = (purchaseId: string) =>
  api<RefundAnswer>(`/api/purchases/${encodeURIComponent(purchaseId)}/refund`, {
    method: 'POST',
  });

export function useRefundSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundSale,
    onSuccess: ({ purchase }) => {
      notify.success(
        purchase.status === 'refunded' ? 'Sale refunded' : 'Refund started',
        `${purchase.productTitle} for ${purchase.buyerEmail}`,
      );
      // Sales lists and every figure that includes this sale.
      return queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
    onError: (error) => notify.error(error, 'Failed to refund the sale'),
  });
}
