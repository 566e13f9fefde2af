import type { ExchangeRatesResponse } from '@lockdrop/contracts';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * "Rates as of Nov 23, 2026" when the rates behind a converted price are more than a day old
 * (catalog decides, by its clock, so a wrong clock on the visitor's phone cannot); otherwise null.
 */
export function ratesAsOfNote(
  rates: Pick<ExchangeRatesResponse, 'asOf' | 'stale'> | undefined,
): string | null {
  if (!rates?.stale || !rates.asOf) return null;
  return `Rates as of ${dateFormat.format(new Date(rates.asOf))}`;
}
