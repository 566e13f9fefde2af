import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { PreviewState } from '@lockdrop/contracts';

/** GET /api/previews/:productId/status (delivery). */
export type { PreviewState } from '@lockdrop/contracts';

const POLL_MS = 2_000;

export const getPreviewState = (productId: string) =>
  api<PreviewState>(`/api/previews/${encodeURIComponent(productId)}/status`);

export const previewStateQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['previews', productId],
    queryFn: () => getPreviewState(productId),
    // The server renders the blurred derivative after upload; ask again until it is done.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
  });

export const usePreviewState = (productId: string) => useQuery(previewStateQueryOptions(productId));
