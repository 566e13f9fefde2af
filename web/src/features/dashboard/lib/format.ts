import { formatMoney } from '@lockdrop/money';

export { formatMoney };

const count = new Intl.NumberFormat('en-US');
export const formatCount = (value: number) => count.format(value);

/** "1 unique visitor", "3 downloads". */
export const countOf = (value: number, singular: string, plural = `${singular}s`) =>
  `${count.format(value)} ${value === 1 ? singular : plural}`;

/** Percent figures come from the API with one decimal already. */
export const formatPercent = (value: number | null) => (value === null ? '—' : `${value}%`);

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** "Jun 27" for a chart axis; days are UTC. */
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** The stat card's change line: real comparison with the period before, or why there is none. */
export function describeChange(changePercent: number | null, value: number | null, days: number) {
  if (changePercent === null) {
    return { text: value ? `New in the last ${days} days` : 'No activity yet', isPositive: true };
  }
  const sign = changePercent > 0 ? '+' : changePercent < 0 ? '−' : '±';
  return {
    text: `${sign}${Math.abs(changePercent)}% vs previous ${days} days`,
    isPositive: changePercent >= 0,
  };
}
