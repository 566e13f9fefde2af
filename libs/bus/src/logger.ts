/**
 * The slice of a pino logger the bus uses, declared here so the lib does not depend on pino:
 * any pino logger (or a child of one) satisfies it.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/** For callers that pass no logger; the bus still behaves the same, it just says nothing. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
