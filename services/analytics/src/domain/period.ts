import type { DayRange } from '../db/figures.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export const utcDay = (instant: Date | string): string =>
  new Date(instant).toISOString().slice(0, 10);

const shiftDays = (day: string, days: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** The last `days` UTC days up to and including today, and the same number of days before them. */
export function periodsEndingOn(
  today: Date,
  days: number,
): { current: DayRange; previous: DayRange } {
  const to = utcDay(today);
  const from = shiftDays(to, -(days - 1));
  return {
    current: { from, to },
    previous: { from: shiftDays(from, -days), to: shiftDays(from, -1) },
  };
}

/** Every day of the range, oldest first. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = shiftDays(day, 1)) days.push(day);
  return days;
}

/**
 * Change from the previous period in percent, one decimal. Null when there is nothing to
 * compare with (the previous period was zero): "up ∞ %" is not a figure a seller can use.
 */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
}

/**
 * Unlock rate: sales per unique visitor of the product pages, in percent with one decimal.
 * Null without visitors. It can exceed 100 when buyers pay through a link without opening the page.
 */
export function unlockRatePercent(sales: number, uniqueVisitors: number): number | null {
  if (uniqueVisitors === 0) return null;
  return Math.round((sales / uniqueVisitors) * 1000) / 10;
}
