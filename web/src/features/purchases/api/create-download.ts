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

/** How long a buyer waits for a stamped copy delivery is still making (it answers 503 `copy_preparing`). */
const COPY_RETRY_MS = 5_000;
const COPY_WAIT_ATTEMPTS = 24;

/**
 * Asks again while delivery is still stamping the buyer's copy of a PDF: the copy goes on being
 * made between requests, and asking again spends nothing from the link budget.
 */
async function untilCopyReady<Request>(
  request: (input: Request) => Promise<DownloadLink>,
  input: Request,
): Promise<DownloadLink> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request(input);
    } catch (error) {
      const preparing = error instanceof ApiError && error.code === 'copy_preparing';
      if (!preparing || attempt >= COPY_WAIT_ATTEMPTS) throw error;
      if (attempt === 0)
        notify.info('Preparing your copy…', 'Your download starts when it is ready.');
      await new Promise((resolve) => setTimeout(resolve, COPY_RETRY_MS));
    }
  }
}

/**
 * Sends the browser to the link: the file streams straight to disk (resumable, never held in
 * memory) and, being an attachment, the page stays where it is.
 */
function useDownloadLink<Request>(mutationFn: (request: Request) => Promise<DownloadLink>) {
  return useMutation({
    mutationFn: (request: Request) => untilCopyReady(mutationFn, request),
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
