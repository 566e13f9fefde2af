import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import type { Product, ProductInput } from '../types';

export const updateProduct = ({ id, ...changes }: Partial<ProductInput> & { id: string }) =>
  api<Product>(`/api/products/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes });

export function useUpdateProduct({ onSuccess }: { onSuccess?: (product: Product) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: async (product) => {
      notify.success('Product updated successfully');
      await queryClient.invalidateQueries({ queryKey: ['products'] });
      onSuccess?.(product);
    },
    onError: (error) => notify.error(error, 'Failed to update product'),
  });
}
