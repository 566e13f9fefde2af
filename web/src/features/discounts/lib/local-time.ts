/** `<input type="datetime-local">` values, which carry no zone: the browser's own is meant. */

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a datetime-local value in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value (the browser's time zone) as an ISO instant; null when empty. */
export function fromLocalInput(local: string): string | null {
  return local ? new Date(local).toISOString() : null;
}
