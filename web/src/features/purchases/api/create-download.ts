import type { DownloadLink, DownloadLinkRequest } from '@lockdrop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';

/** One file of the purchase (`fileId`), or without it the product's main file. */
export const createDownload = (request: DownloadLinkRequest) =>
  api<DownloadLink>('/api/downloads', { method: 'POST', body: request });

/** Every file of the purchase as one ZIP. */
export const createZipDownload = (purchaseId: string) =>
  api<DownloadLink>('/api/downloads/zip', { method: 'POST', body: { purchaseId } });

/**
 * Sends the browser to the link: the file streams straight to disk (resumable, never held in
 * memory) and, being an attachment, the page stays where it is.
 */
function useDownloadLink<Request>(mutationFn: (request: Request) => Promise<DownloadLink>) {
  return useMutation({
    mutationFn,
    onSuccess: (link) => {
      window.location.assign(link.downloadUrl);
      notify.success(`Downloading ${link.fileName}`);
    },
    // 4xx answers carry the spec's words (e.g. 'You must be logged in to download files').
    onError: (error) =>
      notify.error(
        error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error
          : 'Failed to generate download link',
      ),
  });
}

export const useDownload = () => useDownloadLink(createDownload);
export const useZipDownload = () => useDownloadLink(createZipDownload);
