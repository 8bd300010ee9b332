import { describe, expect, it } from 'vitest';
import { countPerDay, dailySeries, fromMinor, startOfLocalDay, toMinor, totals, utcDays } from './series';

describe('overview series', () => {
  it('lists the last days in UTC, oldest first, across a month end', () => {
    expect(utcDays(new Date('2026-12-02T23:30:00Z'), 4)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
  });

  it('starts the local day at local midnight', () => {
    const start = startOfLocalDay(new Date(2026, 10, 23, 17, 45));
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours(), start.getMinutes()]).toEqual([2026, 10, 23, 0, 0]);
  });

  it('adds decimal totals exactly in minor units', () => {
    expect(toMinor('0.1') + toMinor('0.2')).toBe(30);
    expect(fromMinor(toMinor('1234.5'))).toBe('1234.50');
    expect(fromMinor(-5)).toBe('-0.05');
    expect(toMinor('garbage')).toBe(0);
    const t = totals([
      { key: { currency: 'USD' }, count: 2, sums: { total: '10.10' } },
      { key: { currency: 'USD' }, count: 1, sums: { total: '0.20' } },
      { key: { currency: 'EUR' }, count: 1, sums: { total: '3.00' } },
    ]);
    expect(t.count).toBe(4);
    expect(Object.fromEntries(t.sales)).toEqual({ USD: 1030, EUR: 300 });
  });

  it('spreads day groups over the chart days, ignoring days outside it, sales in the main currency', () => {
    const days = ['2026-11-21', '2026-11-22', '2026-11-23'];
    const s = dailySeries([
      { key: { day: '2026-11-21', currency: 'USD' }, count: 2, sums: { total: '20.00' } },
      { key: { day: '2026-11-23', currency: 'USD' }, count: 1, sums: { total: '5.55' } },
      { key: { day: '2026-11-23', currency: 'EUR' }, count: 1, sums: { total: '9.00' } },
      { key: { day: '2026-10-01', currency: 'USD' }, count: 7, sums: { total: '70.00' } },
    ], days);
    expect(s).toEqual({ days, orders: [2, 0, 2], sales: [2000, 0, 555], currency: 'USD' });
    expect(dailySeries([], days)).toEqual({ days, orders: [0, 0, 0], sales: [0, 0, 0], currency: undefined });
  });

  it('counts dates per UTC day', () => {
    expect(countPerDay([new Date('2026-11-22T23:59:59Z'), new Date('2026-11-23T00:00:00Z'), new Date('2026-11-23T12:00:00Z'), new Date('2025-01-01T00:00:00Z')], ['2026-11-22', '2026-11-23'])).toEqual([1, 2]);
  });
});
