import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './dialect.js';
import { escapeLike, foldCase, ilike } from './dialect.js';

/**
 * The wire filter language (docs/api.md "Filters and sort"), parsed once into a small tree and
 * compiled to parameterized SQL. Parsing enforces the named bounds; compiling only ever binds values
 * and uses SQL text that the target's field resolver produced from its own allowlist.
 */

export const FILTER_LIMITS = {
  /** Deepest nesting of $and / $or / $not. */
  maxDepth: 10,
  /** Most conditions (field comparisons) in one filter. */
  maxConditions: 200,
  /** Most values in one $in / $hasSome / $hasAll. */
  maxListValues: 1000,
} as const;

export type FilterOp =
  | '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$hasSome' | '$hasAll'
  | '$startsWith' | '$endsWith' | '$contains' | '$exists' | '$isEmpty' | '$isNotEmpty' | '$matches';

const OPS = new Set<string>(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$hasSome', '$hasAll', '$startsWith', '$endsWith', '$contains', '$exists', '$isEmpty', '$isNotEmpty', '$matches']);

/**
 * `$matches` (the public client's match of URL-ized text): a sequence of literal pieces and "any of
 * space, tab, newline or dash" separators, always case-insensitive. Pieces per pattern are bounded.
 */
export const MATCH_SEPARATORS = ' \t\n-';
export const MATCH_SPEC_MAX = 100;
export type MatchSpec = ({ type: 'literal'; value: string } | { type: 'anyOf'; value: typeof MATCH_SEPARATORS })[];

/**
 * The one text a `$matches` pattern accepts, once a value is normalized the same way
 * (`normalizeForMatch`): lower case, every separator character turned into '-'.
 */
export function matchTarget(spec: MatchSpec): string {
  return spec.map((piece) => (piece.type === 'anyOf' ? '-' : normalizeForMatch(piece.value))).join('');
}

/** Folded as PostgreSQL's lower() folds (foldCase), so SQL and in-memory `$matches` agree. */
export function normalizeForMatch(text: string): string {
  return foldCase(text).replace(/[ \t\n]/g, '-');
}
const LIST_OPS = new Set<string>(['$in', '$hasSome', '$hasAll']);

export type FilterNode =
  | { kind: 'and' | 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  | { kind: 'cond'; field: string; op: FilterOp; value: unknown };

export type FilterProblem = 'REGEX' | 'CASE_SENSITIVE_MATCH' | 'UNKNOWN_OPERATOR' | 'TOO_DEEP' | 'TOO_MANY_CONDITIONS' | 'TOO_MANY_VALUES' | 'BAD_SHAPE' | 'UNKNOWN_FIELD' | 'BAD_VALUE';

/** Why a filter was refused; the caller maps it to its wire error (a field violation, or a WDE code). */
export class FilterError extends Error {
  constructor(readonly problem: FilterProblem, message: string, readonly path: string) {
    super(message);
  }
}

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * A field allowlist (caller's field name -> what it maps to) without a prototype: a plain object
 * literal would also answer `toString`, `constructor` and the other names it inherits, letting
 * them through as if allowed. Every map that is indexed with a caller's field name is built with it.
 */
export function allowlist<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

export function parseFilter(filter: unknown): FilterNode | undefined {
  if (filter === undefined || filter === null) return undefined;
  let conditions = 0;
  const visit = (node: unknown, depth: number, path: string): FilterNode => {
    if (depth > FILTER_LIMITS.maxDepth) throw new FilterError('TOO_DEEP', `Filter is nested deeper than ${FILTER_LIMITS.maxDepth} levels`, path);
    if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new FilterError('BAD_SHAPE', 'Filter must be an object', path);
    const parts: FilterNode[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value)) throw new FilterError('BAD_SHAPE', `${key} takes an array`, `${path}.${key}`);
        parts.push({ kind: key === '$and' ? 'and' : 'or', children: value.map((v, i) => visit(v, depth + 1, `${path}.${key}[${i}]`)) });
      } else if (key === '$not') {
        parts.push({ kind: 'not', child: visit(value, depth + 1, `${path}.$not`) });
      } else if (key.startsWith('$')) {
        throw unknownOperator(key, path);
      } else {
        if (!FIELD_PATH.test(key)) throw new FilterError('UNKNOWN_FIELD', `"${key}" is not a valid field path`, path);
        for (const cond of fieldConditions(key, value, `${path}.${key}`)) {
          conditions += 1;
          if (conditions > FILTER_LIMITS.maxConditions) throw new FilterError('TOO_MANY_CONDITIONS', `Filter has more than ${FILTER_LIMITS.maxConditions} conditions`, path);
          parts.push(cond);
        }
      }
    }
    return parts.length === 1 ? parts[0]! : { kind: 'and', children: parts };
  };
  return visit(filter, 1, 'filter');
}

function unknownOperator(op: string, path: string): FilterError {
  if (op === '$regex') return new FilterError('REGEX', '$regex is not allowed in filters', path);
  return new FilterError('UNKNOWN_OPERATOR', `Unknown filter operator "${op}"`, path);
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function fieldConditions(field: string, value: unknown, path: string): FilterNode[] {
  if (value instanceof Object && '$date' in (value as object) && Object.keys(value as object).length === 1) {
    return [{ kind: 'cond', field, op: '$eq', value }];
  }
  if (!isOperatorObject(value)) return [{ kind: 'cond', field, op: '$eq', value }];
  const out: FilterNode[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$matches') {
      out.push({ kind: 'cond', field, op: '$matches', value: parseMatchSpec(operand, path) });
      continue;
    }
    if (!OPS.has(op)) throw unknownOperator(op, path);
    if (LIST_OPS.has(op)) {
      if (!Array.isArray(operand)) throw new FilterError('BAD_VALUE', `${op} takes an array`, path);
      if (operand.length > FILTER_LIMITS.maxListValues) throw new FilterError('TOO_MANY_VALUES', `${op} takes at most ${FILTER_LIMITS.maxListValues} values`, path);
    }
    if (op === '$exists' && typeof operand !== 'boolean') {
      throw new FilterError('BAD_VALUE', '$exists takes true or false', path);
    }
    if ((op === '$startsWith' || op === '$endsWith' || op === '$contains') && typeof operand !== 'string') {
      throw new FilterError('BAD_VALUE', `${op} takes a string`, path);
    }
    out.push({ kind: 'cond', field, op: op as FilterOp, value: operand });
  }
  return out;
}

function parseMatchSpec(operand: unknown, path: string): MatchSpec {
  const m = operand as { ignoreCase?: unknown; spec?: unknown } | null;
  if (typeof m !== 'object' || m === null) throw new FilterError('BAD_VALUE', '$matches takes {ignoreCase: true, spec: [...]}', path);
  if (m.ignoreCase !== true) throw new FilterError('CASE_SENSITIVE_MATCH', '$matches must ignore case', path);
  if (!Array.isArray(m.spec) || m.spec.length === 0 || m.spec.length > MATCH_SPEC_MAX) {
    throw new FilterError('BAD_VALUE', `$matches.spec takes 1 to ${MATCH_SPEC_MAX} pieces`, path);
  }
  return m.spec.map((piece: unknown) => {
    const p = piece as { type?: unknown; value?: unknown } | null;
    if (p?.type === 'anyOf' && p.value === MATCH_SEPARATORS) return { type: 'anyOf' as const, value: MATCH_SEPARATORS };
    if (p?.type === 'literal' && typeof p.value === 'string' && p.value.length <= 1_000) return { type: 'literal' as const, value: p.value };
    throw new FilterError('BAD_VALUE', `$matches.spec pieces are {"type":"literal","value":<text>} or {"type":"anyOf","value":" \\t\\n-"}`, path);
  });
}

// ---------------------------------------------------------------------------------------------
// Compiling to SQL over a target whose fields map to columns

export type ScalarType = 'string' | 'number' | 'boolean' | 'date';

export interface ColumnField {
  /** SQL for the value, e.g. sql.ref('p.price'); never built from caller text. */
  expr: RawBuilder<unknown>;
  type: ScalarType;
  /** Booleans stored as 0/1 integers. */
  storedAs01?: boolean;
}

/** A multi-valued field (product's collections): the target supplies EXISTS-style SQL. */
export interface SetField {
  type: 'set';
  /** SQL true when any of `values` is among the row's values. */
  hasSome(values: unknown[]): RawBuilder<boolean>;
  /** SQL true when the row has at least one value. */
  notEmpty(): RawBuilder<boolean>;
}

export type FilterField = ColumnField | SetField;

export interface FilterTarget {
  /** The field for a path, or undefined when the path may not be filtered. */
  field(path: string): FilterField | undefined;
}

export function compileFilter(node: FilterNode, target: FilterTarget, dialect: DialectName): RawBuilder<boolean> {
  switch (node.kind) {
    case 'and':
      return node.children.length === 0 ? sql<boolean>`1=1` : sql<boolean>`(${sql.join(node.children.map((c) => compileFilter(c, target, dialect)), sql` AND `)})`;
    case 'or':
      return node.children.length === 0 ? sql<boolean>`1=0` : sql<boolean>`(${sql.join(node.children.map((c) => compileFilter(c, target, dialect)), sql` OR `)})`;
    case 'not':
      return sql<boolean>`NOT (${compileFilter(node.child, target, dialect)})`;
    case 'cond': {
      const field = target.field(node.field);
      if (!field) throw new FilterError('UNKNOWN_FIELD', `"${node.field}" cannot be filtered on`, `filter.${node.field}`);
      return field.type === 'set' ? compileSet(node, field) : compileColumn(node, field, dialect);
    }
  }
}

function compileSet(node: { field: string; op: FilterOp; value: unknown }, field: SetField): RawBuilder<boolean> {
  const path = `filter.${node.field}`;
  // Set fields hold text ids: any other value (null, a number, an object) used to be matched as its
  // String() form ("null", "[object Object]"); it is a wire error now.
  const list = (v: unknown) => {
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => typeof x !== 'string')) throw new FilterError('BAD_VALUE', `${node.op} on "${node.field}" takes text ids`, path);
    return values;
  };
  switch (node.op) {
    case '$eq': case '$hasSome': case '$in': return field.hasSome(list(node.value));
    case '$hasAll': {
      const values = list(node.value);
      if (values.length === 0) return sql<boolean>`1=1`;
      return sql<boolean>`(${sql.join(values.map((v) => field.hasSome([v])), sql` AND `)})`;
    }
    case '$ne': return sql<boolean>`NOT (${field.hasSome(list(node.value))})`;
    // `$isEmpty: false` means "not empty" (it used to be read as `$isEmpty: true`); both take a boolean.
    case '$exists': case '$isNotEmpty': return emptiness(node, path) ? field.notEmpty() : sql<boolean>`NOT (${field.notEmpty()})`;
    case '$isEmpty': return emptiness(node, path) ? sql<boolean>`NOT (${field.notEmpty()})` : field.notEmpty();
    default: throw new FilterError('UNKNOWN_OPERATOR', `${node.op} does not apply to "${node.field}"`, path);
  }
}

/** The boolean operand of $exists / $isEmpty / $isNotEmpty (a wire error when it is not one). */
function emptiness(node: { op: FilterOp; value: unknown }, path: string): boolean {
  if (typeof node.value !== 'boolean') throw new FilterError('BAD_VALUE', `${node.op} takes true or false`, path);
  return node.value;
}

function scalar(value: unknown, field: ColumnField, path: string): unknown {
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new FilterError('BAD_VALUE', 'expects a number', path);
      return value;
    case 'string':
      if (typeof value !== 'string') throw new FilterError('BAD_VALUE', 'expects a string', path);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw new FilterError('BAD_VALUE', 'expects true or false', path);
      return field.storedAs01 ? (value ? 1 : 0) : value;
    case 'date': {
      const text = typeof value === 'object' && value !== null && '$date' in value ? (value as { $date: unknown }).$date : value;
      if (typeof text !== 'string' || Number.isNaN(Date.parse(text))) throw new FilterError('BAD_VALUE', 'expects an ISO date', path);
      return new Date(text).toISOString();
    }
  }
}

function compileColumn(node: { field: string; op: FilterOp; value: unknown }, field: ColumnField, dialect: DialectName): RawBuilder<boolean> {
  const path = `filter.${node.field}`;
  const e = field.expr;
  const like = (pattern: string) => ilike(dialect, e, pattern);
  switch (node.op) {
    case '$eq':
      return node.value === null ? sql<boolean>`${e} IS NULL` : sql<boolean>`${e} = ${scalar(node.value, field, path)}`;
    case '$ne':
      return node.value === null ? sql<boolean>`${e} IS NOT NULL` : sql<boolean>`(${e} IS NULL OR ${e} <> ${scalar(node.value, field, path)})`;
    case '$gt': return sql<boolean>`${e} > ${scalar(node.value, field, path)}`;
    case '$gte': return sql<boolean>`${e} >= ${scalar(node.value, field, path)}`;
    case '$lt': return sql<boolean>`${e} < ${scalar(node.value, field, path)}`;
    case '$lte': return sql<boolean>`${e} <= ${scalar(node.value, field, path)}`;
    case '$in': case '$hasSome': {
      const values = (node.value as unknown[]).map((v) => scalar(v, field, path));
      return values.length === 0 ? sql<boolean>`1=0` : sql<boolean>`${e} IN (${sql.join(values)})`;
    }
    case '$hasAll': {
      const values = [...new Set((node.value as unknown[]).map((v) => scalar(v, field, path)))];
      if (values.length > 1) return sql<boolean>`1=0`; // a scalar holds one value
      return values.length === 0 ? sql<boolean>`1=1` : sql<boolean>`${e} = ${values[0]}`;
    }
    // LIKE is text matching: on a number, boolean or date column PostgreSQL refused it (a 500) while
    // SQLite matched the value's text form, so these operators apply to text fields only.
    case '$startsWith': case '$endsWith': case '$contains':
      if (field.type !== 'string') throw new FilterError('UNKNOWN_OPERATOR', `${node.op} applies to text fields only, not "${node.field}"`, path);
      return like(node.op === '$startsWith' ? `${escapeLike(String(node.value))}%` : node.op === '$endsWith' ? `%${escapeLike(String(node.value))}` : `%${escapeLike(String(node.value))}%`);
    case '$exists': return node.value ? sql<boolean>`${e} IS NOT NULL` : sql<boolean>`${e} IS NULL`;
    // `$isEmpty: false` / `$isNotEmpty: false` are the opposite test (the value used to be ignored).
    case '$isEmpty': case '$isNotEmpty': {
      const empty = field.type === 'string' ? sql<boolean>`(${e} IS NULL OR ${e} = '')` : sql<boolean>`${e} IS NULL`;
      const notEmpty = field.type === 'string' ? sql<boolean>`(${e} IS NOT NULL AND ${e} <> '')` : sql<boolean>`${e} IS NOT NULL`;
      return (node.op === '$isEmpty') === emptiness(node, path) ? empty : notEmpty;
    }
    case '$matches': throw new FilterError('UNKNOWN_OPERATOR', `$matches does not apply to "${node.field}"`, path);
  }
}

// ---------------------------------------------------------------------------------------------
// Sort

export interface SortSpec { fieldName: string; order: 'ASC' | 'DESC' }

export function parseSort(sort: unknown, sortable: (field: string) => RawBuilder<unknown> | undefined, maxFields = 5): { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC'; fieldName: string }[] {
  if (sort === undefined || sort === null) return [];
  if (!Array.isArray(sort)) throw new FilterError('BAD_SHAPE', 'sort must be an array', 'sort');
  if (sort.length > maxFields) throw new FilterError('TOO_MANY_CONDITIONS', `sort takes at most ${maxFields} fields`, 'sort');
  return sort.map((s: unknown, i) => {
    const item = s as { fieldName?: unknown; order?: unknown; direction?: unknown };
    const fieldName = item?.fieldName;
    const order = item?.order ?? item?.direction ?? 'ASC';
    if (typeof fieldName !== 'string') throw new FilterError('BAD_SHAPE', 'sort fieldName must be a string', `sort[${i}].fieldName`);
    if (order !== 'ASC' && order !== 'DESC') throw new FilterError('BAD_VALUE', 'order must be ASC or DESC', `sort[${i}].order`);
    const expr = sortable(fieldName);
    if (!expr) throw new FilterError('UNKNOWN_FIELD', `"${fieldName}" cannot be sorted on`, `sort[${i}].fieldName`);
    return { expr, order, fieldName };
  });
}
