import type { UpdateProductInput } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import type { Product } from '../types';

export type ProductUpdate = UpdateProductInput & { id: string };

export const updateProduct = ({ id, ...changes }: ProductUpdate) =>
  api<Product>(`/api/products/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes });

export function useUpdateProduct({ onSuccess }: { onSuccess?: (product: Product) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: async (product, { notifyBuyers }) => {
      notify.success(
        'Product updated successfully',
        notifyBuyers ? 'Your buyers will get an e-mail about the new files.' : undefined,
      );
      await queryClient.invalidateQueries({ queryKey: ['products'] });
      onSuccess?.(product);
    },
    // The catalog's own words: 'Tell my buyers goes with a new or replaced file', and the like.
    onError: (error) => notify.error(error, 'Failed to update product'),
  });
}
