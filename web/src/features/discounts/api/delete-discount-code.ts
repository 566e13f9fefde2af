import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import { DISCOUNT_CODES_KEY } from './get-discount-codes';

/** DELETE /api/discount-codes/:id: a code that was used is refused (409 `discount_in_use`). */
export const deleteDiscountCode = (id: string) =>
  api<void>(`/api/discount-codes/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteDiscountCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDiscountCode,
    onSuccess: async () => {
      notify.success('Discount code deleted');
      await queryClient.invalidateQueries({ queryKey: DISCOUNT_CODES_KEY });
    },
    // The server's words, e.g. 'This code has been used; turn it off instead'.
    onError: (error) => notify.error(error, 'Failed to delete the discount code'),
  });
}
