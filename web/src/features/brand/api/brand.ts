import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrandLogo, BrandSettings, UpdateBrandInput } from '@lockdrop/contracts';
import { useSession } from '@/features/auth';
import { api, ApiError } from '@/lib/api';

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
      // Product pages carry the brand; the seller's own open ones show the new one.
      return queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}

/** The logo goes to delivery, which resizes and re-encodes it; the brand then names its id. */
export function useUploadLogo() {
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      const response = await fetch('/api/brand-logos', {
        method: 'POST',
        credentials: 'include',
        headers: { Accept: 'application/json' },
        body: form,
      });
      const body = (await response.json().catch(() => ({}))) as {
        error?: { code?: string; message?: string };
      };
      if (response.status !== 201)
        throw new ApiError(
          body.error?.code ?? `http_${response.status}`,
          response.status,
          body.error?.message ?? 'Failed to upload the logo',
        );
      return body as unknown as BrandLogo;
    },
  });
}
