import { matchTarget, normalizeForMatch, type FilterNode, type MatchSpec } from '../../storage/filter.js';
import { foldCase } from '../../storage/dialect.js';
import { getPath, isPlainObject } from './values.js';

/**
 * The filter and sort semantics of storage/json-filter.ts, in memory: used for aggregate `finalFilter` (which
 * applies to computed groups) and by the property tests as the reference the SQL must agree with.
 * String operators fold ASCII case only (SQLite LIKE does the same).
 */

type Kind = 'missing' | 'null' | 'boolean' | 'number' | 'string' | 'date' | 'array' | 'object';

function kindOf(v: unknown): Kind {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  if (isPlainObject(v) && typeof v.$date === 'string') return 'date';
  return 'object';
}

const dateText = (v: unknown): string => new Date((v as { $date: string }).$date).toISOString();

function equals(actual: unknown, expected: unknown): boolean {
  const ek = kindOf(expected);
  const ak = kindOf(actual);
  if (ek === 'null') return ak === 'missing' || ak === 'null';
  if (ek === 'date') return ak === 'date' && (actual as { $date: string }).$date === dateText(expected);
  return ak === ek && actual === expected;
}

function cmp(actual: unknown, expected: unknown, test: (c: number) => boolean): boolean {
  const ek = kindOf(expected);
  const ak = kindOf(actual);
  if (ak !== ek) return false;
  if (ek === 'number') return test((actual as number) - (expected as number));
  if (ek === 'string') return test(byteCompare(actual as string, expected as string));
  if (ek === 'date') return test(byteCompare((actual as { $date: string }).$date, dateText(expected)));
  return false;
}

export function byteCompare(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

function hasElement(actual: unknown, expected: unknown): boolean {
  return Array.isArray(actual) ? actual.some((e) => equals(e, expected)) : equals(actual, expected);
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

export function matches(node: FilterNode | undefined, data: unknown): boolean {
  if (!node) return true;
  switch (node.kind) {
    case 'and': return node.children.every((c) => matches(c, data));
    case 'or': return node.children.some((c) => matches(c, data));
    case 'not': return !matches(node.child, data);
    case 'cond': {
      const v = getPath(data, node.field.split('.'));
      const x = node.value;
      switch (node.op) {
        case '$eq': return equals(v, x);
        case '$ne': return !equals(v, x);
        case '$gt': return cmp(v, x, (c) => c > 0);
        case '$gte': return cmp(v, x, (c) => c >= 0);
        case '$lt': return cmp(v, x, (c) => c < 0);
        case '$lte': return cmp(v, x, (c) => c <= 0);
        case '$in': return (x as unknown[]).some((e) => equals(v, e));
        case '$hasSome': return (x as unknown[]).some((e) => hasElement(v, e));
        case '$hasAll': return (x as unknown[]).every((e) => hasElement(v, e));
        case '$startsWith': return typeof v === 'string' && foldCase(v).startsWith(foldCase(x as string));
        case '$endsWith': return typeof v === 'string' && foldCase(v).endsWith(foldCase(x as string));
        case '$contains': return typeof v === 'string' && foldCase(v).includes(foldCase(x as string));
        case '$exists': return (v !== undefined && v !== null) === x;
        case '$isEmpty': return isEmpty(v);
        case '$isNotEmpty': return !isEmpty(v);
        case '$matches': return typeof v === 'string' && normalizeForMatch(v) === matchTarget(x as MatchSpec);
      }
    }
  }
}

const RANK: Record<Kind, number> = { missing: 0, null: 0, boolean: 1, number: 2, string: 3, date: 4, array: 5, object: 5 };

/** Compares two values as ORDER BY does in storage/json-filter.ts sortTerms (ascending). */
export function compareValues(a: unknown, b: unknown): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (RANK[ka] !== RANK[kb]) return RANK[ka] - RANK[kb];
  switch (ka) {
    case 'boolean': return Number(a) - Number(b);
    case 'number': return (a as number) - (b as number);
    case 'string': return byteCompare(a as string, b as string);
    case 'date': return byteCompare(dateText(a), dateText(b));
    default: return 0;
  }
}

/** Sorts items by the given fields, then `_id` ascending (the SQL tie-breaker). */
export function sortItems<T extends Record<string, unknown>>(items: T[], sort: { fieldName: string; order: 'ASC' | 'DESC' }[]): T[] {
  return [...items].sort((x, y) => {
    for (const s of sort) {
      const c = compareValues(getPath(x, s.fieldName.split('.')), getPath(y, s.fieldName.split('.')));
      if (c !== 0) return s.order === 'DESC' ? -c : c;
    }
    return byteCompare(String(x._id), String(y._id));
  });
}

