import { ApiError } from './api';

/**
 * Sends one picture (a store logo, an avatar) as multipart `file` to delivery, which resizes
 * and re-encodes it; answers its 201 body. Errors come back in the API's error shape.
 */
export async function uploadImage<T>(path: string, file: File, fallback: string): Promise<T> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch(path, {
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
      body.error?.message ?? fallback,
    );
  return body as unknown as T;
}
