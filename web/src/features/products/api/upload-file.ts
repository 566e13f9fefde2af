import { api, ApiError, NETWORK_ERROR } from '@/lib/api';
import type { UploadedFile } from '@lockdrop/contracts';

/** POST /api/uploads answer (delivery). */
export type { UploadedFile } from '@lockdrop/contracts';

interface UploadOptions {
  /** 0–100, from the request's own upload events. */
  onProgress: (percent: number) => void;
  signal: AbortSignal;
}

function errorOf(xhr: XMLHttpRequest): ApiError {
  let body: { error?: { code?: unknown; message?: unknown } } = {};
  try {
    body = JSON.parse(xhr.responseText) as typeof body;
  } catch {
    // A proxy's HTML error page: keep the status-derived code.
  }
  const code = typeof body.error?.code === 'string' ? body.error.code : `http_${xhr.status}`;
  const message =
    typeof body.error?.message === 'string' ? body.error.message : 'Failed to upload file';
  return new ApiError(code, xhr.status, message);
}

/**
 * Streams the file to delivery. XMLHttpRequest rather than the fetch-based client: fetch
 * reports no upload progress, and the progress bar must show real bytes sent.
 */
export function uploadFile(file: File, { onProgress, signal }: UploadOptions) {
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.floor((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status === 201) resolve(JSON.parse(xhr.responseText) as UploadedFile);
      else reject(errorOf(xhr));
    };
    xhr.onerror = () =>
      reject(
        new ApiError(
          NETWORK_ERROR,
          0,
          'Could not reach the server. Check your connection and try again.',
        ),
      );
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** Drops an upload no product uses yet (the seller removed it from the form). */
export const deleteUpload = (fileId: string) =>
  api<void>(`/api/uploads/${encodeURIComponent(fileId)}`, { method: 'DELETE' });
