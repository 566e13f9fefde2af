import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrandLogo, BrandSettings, UpdateBrandInput } from '@lockdrop/contracts';
import { useSession } from '@/features/auth';
import { api } from '@/lib/api';
import { uploadImage } from '@/lib/upload-image';
import { DOMAIN_QUERY_ROOT } from './domain';

/** Keyed by the session's plan: an upgrade renews the session, and the screen unlocks with it. */
export const brandQueryOptions = (plan: string | undefined) =>
  queryOptions({
    queryKey: ['brand', plan ?? null],
    queryFn: () => api<BrandSettings>('/api/brand'),
  });

export const useBrandSettings = () => useQuery(brandQueryOptions(useSession().user?.plan));

export function useSaveBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateBrandInput) =>
      api<BrandSettings>('/api/brand', { method: 'PUT', body: input }),
    onSuccess: (settings) => {
      queryClient.setQueryData(['brand', settings.plan], settings);
      // Product pages carry the brand; the seller's own open ones show the new one. The domain
      // section waits for a handle: with one saved it offers to add a domain.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['products'] }),
        queryClient.invalidateQueries({ queryKey: DOMAIN_QUERY_ROOT }),
      ]);
    },
  });
}

/** The logo goes to delivery, which resizes and re-encodes it; the brand then names its id. */
export function useUploadLogo() {
  return useMutation({
    mutationFn: (file: File) =>
      uploadImage<BrandLogo>('/api/brand-logos', file, 'Failed to upload the logo'),
  });
}
