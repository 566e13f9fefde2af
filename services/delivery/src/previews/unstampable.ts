// Kept apart from stamp-pdf.ts so the service process never loads the PDF parser itself.

/**
 * Why a PDF cannot be stamped: the buyer then gets the original and the seller is told.
 * `too_large`: over the parse limit, or the stamping process ran out of memory or time.
 */
export type UnstampableReason = 'encrypted' | 'malformed' | 'too_large';

/** The render process's exit code for a PDF that cannot be stamped (the reason on stderr). */
export const UNSTAMPABLE_EXIT_CODE = 3;

export class UnstampablePdfError extends Error {
  override name = 'UnstampablePdfError';
  constructor(readonly reason: UnstampableReason) {
    super(`PDF cannot be stamped: ${reason}`);
  }
}
