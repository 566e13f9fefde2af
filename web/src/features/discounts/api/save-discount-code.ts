import type { DiscountCode, DiscountCodeRequest } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import { DISCOUNT_CODES_KEY } from './get-discount-codes';

/** A new code (`id` null: POST) or a whole saved one (PUT /api/discount-codes/:id). */
export interface SaveDiscountCode {
  id: string | null;
  code: DiscountCodeRequest;
}

export const saveDiscountCode = ({ id, code }: SaveDiscountCode) =>
  id === null
    ? api<DiscountCode>('/api/discount-codes', { method: 'POST', body: code })
    : api<DiscountCode>(`/api/discount-codes/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: code,
      });

/** Saves a code; `invalid_discount` and `discount_code_taken` say in words what to change. */
export function useSaveDiscountCode({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDiscountCode,
    onSuccess: async (code, { id }) => {
      notify.success(
        id === null ? `Discount code ${code.code} created` : `Discount code ${code.code} saved`,
      );
      await queryClient.invalidateQueries({ queryKey: DISCOUNT_CODES_KEY });
      onSuccess?.();
    },
    onError: (error) => notify.error(error, 'Failed to save the discount code'),
  });
}
