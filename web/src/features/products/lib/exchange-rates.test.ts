import { describe, expect, it } from 'vitest';
import { ratesAsOfNote } from './exchange-rates';

describe('the "Rates as of" note under a converted price', () => {
  it('says how old the rates are once they are more than a day old', () => {
    expect(ratesAsOfNote({ asOf: '2026-11-23T12:00:00.000Z', stale: true })).toBe(
      'Rates as of Nov 23, 2026',
    );
  });

  it('says nothing while the rates are fresh, loading, or when none are stored', () => {
    expect(ratesAsOfNote({ asOf: '2026-11-23T12:00:00.000Z', stale: false })).toBeNull();
    expect(ratesAsOfNote(undefined)).toBeNull();
    expect(ratesAsOfNote({ asOf: null, stale: false })).toBeNull();
  });
});
