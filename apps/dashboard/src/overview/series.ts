/**
 * Turning the server's order aggregate groups and new members' dates into chart series. Pure, so
 * the unit tests pin it down; the page only renders what these return.
 */
import type { OrderAggregateGroup } from '@vitrine/types';

/** Days the overview's charts cover, today included. */
export const CHART_DAYS = 30;
/** Order statuses the overview counts: placed orders, paid or not (canceled and rejected ones are not sales). */
export const COUNTED_STATUSES = ['INITIALIZED', 'PENDING', 'APPROVED'] as const;
const DAY_MS = 86_400_000;

/** The last `days` UTC dates ("2026-11-23"), oldest first, ending with the UTC date of `now`. */
export function utcDays(now: Date, days: number = CHART_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Midnight of `now`'s day in the browser's time zone (where the owner's "today" starts). */
export function startOfLocalDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** Decimal text to minor units (2 decimals; the aggregate's sums are exact decimal strings). */
export function toMinor(amount: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) return 0;
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -minor : minor;
}

/** Minor units back to "12.30". */
export function fromMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export interface Totals { count: number; sales: Map<string, number> }

/** Orders and sales (minor units per currency) over every group. */
export function totals(groups: readonly OrderAggregateGroup[]): Totals {
  const sales = new Map<string, number>();
  let count = 0;
  for (const g of groups) {
    count += g.count;
    const currency = g.key.currency;
    if (currency && g.sums.total !== undefined) sales.set(currency, (sales.get(currency) ?? 0) + toMinor(g.sums.total));
  }
  return { count, sales };
}

export interface DaySeries { days: string[]; orders: number[]; sales: number[]; currency: string | undefined }

/**
 * Orders and sales per UTC day from groups keyed by `day` (and `currency`). A site prices in one
 * currency; if orders in several exist, sales follow the one with the most orders.
 */
export function dailySeries(groups: readonly OrderAggregateGroup[], days: readonly string[]): DaySeries {
  const byCurrency = new Map<string, number>();
  for (const g of groups) if (g.key.currency) byCurrency.set(g.key.currency, (byCurrency.get(g.key.currency) ?? 0) + g.count);
  const currency = [...byCurrency.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const index = new Map(days.map((d, i) => [d, i]));
  const orders = days.map(() => 0);
  const sales = days.map(() => 0);
  for (const g of groups) {
    const i = g.key.day === undefined ? undefined : index.get(g.key.day);
    if (i === undefined) continue;
    orders[i]! += g.count;
    if (g.key.currency === currency && g.sums.total !== undefined) sales[i]! += toMinor(g.sums.total);
  }
  return { days: [...days], orders, sales, currency };
}

/** How many of `dates` fall on each of the UTC `days`. */
export function countPerDay(dates: readonly Date[], days: readonly string[]): number[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const counts = days.map(() => 0);
  for (const date of dates) {
    const i = index.get(date.toISOString().slice(0, 10));
    if (i !== undefined) counts[i]! += 1;
  }
  return counts;
}
