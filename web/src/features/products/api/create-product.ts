import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import type { Product, ProductInput } from '../types';

export const createProduct = (input: ProductInput) =>
  api<Product>('/api/products', { method: 'POST', body: input });

export function useCreateProduct({ onSuccess }: { onSuccess?: (product: Product) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: async (product) => {
      notify.success('Product created successfully!');
      await queryClient.invalidateQueries({ queryKey: ['products', 'mine'] });
      onSuccess?.(product);
    },
    // A validation answer says what to fix; anything else is the spec's generic text.
    onError: (error) =>
      notify.error(
        error instanceof ApiError && error.status === 400 ? error : 'Failed to create product',
      ),
  });
}
