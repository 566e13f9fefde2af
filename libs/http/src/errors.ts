/**
 * An expected failure with a stable machine code; the error handler turns it into
 * `{ error: { code, message, details? } }` with `status`. The UI maps codes to the spec's texts.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const errors = {
  badRequest: (code: string, message: string, details?: unknown) =>
    new AppError(code, 400, message, details),
  unauthorized: (message = 'Authentication required') => new AppError('unauthorized', 401, message),
  forbidden: (message = 'You do not have access to this resource') =>
    new AppError('forbidden', 403, message),
  notFound: (code: string, message: string) => new AppError(code, 404, message),
  conflict: (code: string, message: string) => new AppError(code, 409, message),
  tooLarge: (message: string) => new AppError('payload_too_large', 413, message),
  tooManyRequests: (message = 'Too many requests, please try again later') =>
    new AppError('rate_limited', 429, message),
};
