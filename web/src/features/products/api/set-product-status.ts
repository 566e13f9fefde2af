import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';
import type { Product, ProductStatus } from '../types';

export const setProductStatus = ({ id, status }: { id: string; status: ProductStatus }) =>
  api<Product>(`/api/products/${encodeURIComponent(id)}/status`, {
    method: 'POST',
    body: { status },
  });

/** The Live/Draft toggle of /my-products (spec §4 Product status). */
export function useSetProductStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProductStatus,
    onSuccess: async (product) => {
      notify.success(
        product.status === 'published'
          ? 'Product published successfully'
          : 'Product unpublished successfully',
      );
      await queryClient.invalidateQueries({ queryKey: ['products'] });
    },
    onError: () => notify.error('Failed to update product status'),
  });
}
