import type { PurchaseFiles } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';

/**
 * GET /api/downloads/files: every file the purchase may download, in the seller's order, and the
 * ZIP of all of them. Same credentials as a download (account, checkout browser or receipt).
 */
export const getPurchaseFiles = (purchaseId: string) =>
  api<PurchaseFiles>(`/api/downloads/files?purchaseId=${encodeURIComponent(purchaseId)}`);

export const purchaseFilesQueryOptions = (purchaseId: string) =>
  queryOptions({
    queryKey: ['purchase-files', purchaseId],
    queryFn: () => getPurchaseFiles(purchaseId),
    // A refusal (signed out, not this buyer's) stays one; other failures get the default retries.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export const usePurchaseFiles = (purchaseId: string) =>
  useQuery(purchaseFilesQueryOptions(purchaseId));
