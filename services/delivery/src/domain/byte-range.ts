/** Inclusive, as in `Content-Range`. */
export interface SatisfiableRange {
  start: number;
  end: number;
}

/** `full`: send everything (no Range, one we ignore, or several ranges); `unsatisfiable`: 416. */
export type RangeRequest =
  { kind: 'full' } | { kind: 'partial'; range: SatisfiableRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/**
 * One byte range of a file of `size` bytes (RFC 9110 §14): `a-b`, `a-` or the suffix `-n`; an
 * end past the file is cut to its last byte. A header we cannot parse or one asking for several
 * ranges is ignored, which the RFC allows (download managers then fall back to one stream).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || (last !== '' && Number(last) < start))
    return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}
