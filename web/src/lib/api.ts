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
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/** zod's own wording ("Invalid input: expected string…"): meant for developers, not people. */
const MACHINE_WORDING = /^(Invalid|Too (big|small)|Expected|Unrecognized|Required)\b/;
export const CHECK_THE_FORM =
  'Something you entered was not accepted. Please check it and try again.';

/**
 * A refused field reads "Invalid body.avatarUrl: …" in the error shape (issue 29 saw it in a
 * toast). People get the field's sentence from our schemas instead, or a plain request to check
 * the form when the schema used zod's own words.
 */
export function validationSentence(details: unknown): string {
  const first = Array.isArray(details) ? (details[0] as { message?: unknown } | undefined) : null;
  const sentence = typeof first?.message === 'string' ? first.message.trim() : '';
  return sentence && !MACHINE_WORDING.test(sentence) ? sentence : CHECK_THE_FORM;
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  const code = typeof body.error?.code === 'string' ? body.error.code : `http_${response.status}`;
  const message =
    code === 'validation_failed'
      ? validationSentence(body.error?.details)
      : typeof body.error?.message === 'string'
        ? body.error.message
        : 'An unexpected error occurred';
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
