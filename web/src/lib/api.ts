/** The one HTTP client of the app. It knows the API's error shape { error: { code, message } }. */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** status 0: the request never got an answer (offline, DNS, connection refused). */
export const NETWORK_ERROR = 'network_error';

interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown };
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  const code = typeof body.error?.code === 'string' ? body.error.code : `http_${response.status}`;
  const message =
    typeof body.error?.message === 'string' ? body.error.message : 'An unexpected error occurred';
  return new ApiError(code, response.status, message);
}

export async function api<T>(
  path: string,
  { method = 'GET', body, signal }: ApiRequest = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(
      NETWORK_ERROR,
      0,
      'Could not reach the server. Check your connection and try again.',
    );
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
