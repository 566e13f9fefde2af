// Kept apart from stamp-pdf.ts so the service process never loads the PDF parser itself.

/**
 * Why a PDF cannot be stamped: the buyer then gets the original and the seller is told.
 * `too_large`: over the parse limit (known from the file's size before any process starts).
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

/**
 * The stamping process died (a signal: the kernel's OOM killer, the wall-clock kill, a limit) or
 * failed for a reason that is not the file's. Nothing is learned about the file from that — a
 * loaded machine kills what an idle one finishes — so the copy is tried again on a later
 * request, and meanwhile nobody gets the unstamped original.
 */
export class StampInterruptedError extends Error {
  override name = 'StampInterruptedError';
}
