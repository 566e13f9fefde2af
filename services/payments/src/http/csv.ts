/** Spreadsheet-safe CSV cell: quoted, and never starting with a formula character. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A CSV file of `rows` under `header`, CRLF line ends as spreadsheets expect. */
export function toCsv(header: string[], rows: string[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** How many rows an export holds at most (the screens page; an export is one file). */
export const EXPORT_LIMIT = 10_000;
