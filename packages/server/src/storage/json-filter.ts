import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './dialect.js';
import { escapeLike, ilike, lowerFor } from './dialect.js';
import { FilterError, matchTarget, type FilterNode, type FilterOp, type MatchSpec } from './filter.js';

/**
 * Compiles the wire filter tree (filter.ts parses it) to SQL over a JSON document column (the data
 * domain's `data_items.data`), on SQLite (JSON1) and PostgreSQL (jsonb). Comparisons are type-exact: every
 * comparison carries its type test (json_type / jsonb_typeof), so `true` never equals 1 and "1" never
 * equals 1. Field paths reach SQL only as literals built from segments that match FIELD_SEGMENT; every
 * value is a bound parameter. The same semantics are implemented in memory by the data domain's evaluate.ts.
 */

/** A date inside a JSON document: `{"$date": "<ISO text>"}` (dates compare and sort as their ISO text). */
export interface DateValue { $date: string }

export function isDateValue(value: unknown): value is DateValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.keys(value).length === 1 && typeof (value as { $date?: unknown }).$date === 'string';
}

export const FIELD_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits and checks a dotted path; throws when a segment is not a plain identifier. */
export function pathSegments(field: string, where = `filter.${field}`): string[] {
  const parts = field.split('.');
  if (parts.length > 10 || !parts.every((p) => FIELD_SEGMENT.test(p))) throw new FilterError('UNKNOWN_FIELD', `"${field}" is not a valid field path`, where);
  return parts;
}

/** SQL for one JSON path of the item document, on one dialect. */
export class JsonPath {
  readonly sqlitePath: string;
  readonly pgPath: string;
  constructor(readonly dialect: DialectName, readonly segments: string[], readonly column = 'data') {
    // Segments are identifiers (checked above), so they need no quoting inside these literals.
    this.sqlitePath = `'$.${segments.map((s) => (s.startsWith('$') ? `"${s}"` : s)).join('.')}'`;
    this.pgPath = `'{${segments.join(',')}}'`;
  }

  child(segment: string): JsonPath {
    return new JsonPath(this.dialect, [...this.segments, segment], this.column);
  }

  /** The indexed expression: json_extract(...) on SQLite, (data #> '{...}') on PostgreSQL. */
  value(): RawBuilder<unknown> {
    return this.dialect === 'postgres' ? sql.raw(`(${this.column} #> ${this.pgPath})`) : sql.raw(`json_extract(${this.column}, ${this.sqlitePath})`);
  }

  /** Text of a string value (PostgreSQL #>>); SQLite's json_extract already gives the text. */
  text(): RawBuilder<unknown> {
    return this.dialect === 'postgres' ? sql.raw(`(${this.column} #>> ${this.pgPath})`) : this.value();
  }

  /** JSON type name: SQLite null|true|false|integer|real|text|array|object; PostgreSQL null|boolean|number|string|array|object; NULL when missing. */
  type(): RawBuilder<unknown> {
    return this.dialect === 'postgres' ? sql.raw(`jsonb_typeof(${this.column} #> ${this.pgPath})`) : sql.raw(`json_type(${this.column}, ${this.sqlitePath})`);
  }

  /** The document with this path set to `json` (JSON text, bound as a parameter). */
  set(json: string): RawBuilder<unknown> {
    return this.dialect === 'postgres'
      ? sql`jsonb_set(${sql.raw(this.column)}, ${sql.raw(this.pgPath)}, CAST(${json} AS jsonb))`
      : sql`json_set(${sql.raw(this.column)}, ${sql.raw(this.sqlitePath)}, json(${json}))`;
  }

  is(kind: ValueKind): RawBuilder<boolean> {
    if (kind === 'date') return sql<boolean>`${this.child('$date').type()} = ${this.dialect === 'postgres' ? 'string' : 'text'}`;
    if (kind === 'missing') return sql<boolean>`${this.type()} IS NULL`;
    return sql<boolean>`${this.type()} IN (${sql.join(typeNames(this.dialect, kind).map((t) => sql.lit(t)))})`;
  }
}

export type ValueKind = 'null' | 'boolean' | 'number' | 'string' | 'date' | 'array' | 'object' | 'missing';

function typeNames(dialect: DialectName, kind: Exclude<ValueKind, 'date' | 'missing'>): string[] {
  if (dialect === 'postgres') return [kind];
  switch (kind) {
    case 'boolean': return ['true', 'false'];
    case 'number': return ['integer', 'real'];
    case 'string': return ['text'];
    default: return [kind];
  }
}

/** A scalar filter operand after checking: what kind it is and how it binds. */
type Scalar = { kind: 'null' } | { kind: 'boolean'; value: boolean } | { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'date'; value: string };

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function toScalar(value: unknown, path: string): Scalar {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > MAX_SAFE) throw new FilterError('BAD_VALUE', `numbers must be finite and within +/-${MAX_SAFE}`, path);
    return { kind: 'number', value };
  }
  if (typeof value === 'string') return { kind: 'string', value };
  if (isDateValue(value)) return { kind: 'date', value: normalizeDate(value, path) };
  throw new FilterError('BAD_VALUE', 'expects a string, number, boolean, date or null', path);
}

function normalizeDate(value: DateValue, path: string): string {
  const ms = Date.parse(value.$date);
  if (Number.isNaN(ms)) throw new FilterError('BAD_VALUE', 'expects an ISO date', path);
  return new Date(ms).toISOString();
}

type Cmp = '=' | '>' | '>=' | '<' | '<=';

function compare(p: JsonPath, op: Cmp, s: Scalar): RawBuilder<boolean> {
  const pg = p.dialect === 'postgres';
  const o = sql.raw(op);
  switch (s.kind) {
    case 'null':
      return op === '=' ? sql<boolean>`(${p.type()} IS NULL OR ${p.is('null')})` : sql<boolean>`1=0`;
    case 'boolean':
      if (op !== '=') return sql<boolean>`1=0`;
      return pg ? sql<boolean>`${p.value()} = ${sql.lit(s.value ? 'true' : 'false')}::jsonb` : sql<boolean>`${p.type()} = ${sql.lit(s.value ? 'true' : 'false')}`;
    case 'number':
      // The type test comes first so the comparison only ever sees numbers; the value term matches the expression index.
      return pg ? sql<boolean>`(${p.is('number')} AND ${p.value()} ${o} CAST(${JSON.stringify(s.value)} AS jsonb))` : sql<boolean>`(${p.is('number')} AND ${p.value()} ${o} ${s.value})`;
    case 'string':
      if (pg) {
        return op === '='
          ? sql<boolean>`${p.value()} = CAST(${JSON.stringify(s.value)} AS jsonb)`
          : sql<boolean>`(${p.is('string')} AND ${p.text()} COLLATE "C" ${o} ${s.value})`;
      }
      return sql<boolean>`(${p.is('string')} AND ${p.value()} ${o} ${s.value})`;
    case 'date': {
      const d = p.child('$date');
      return pg ? sql<boolean>`(${p.is('date')} AND ${d.text()} COLLATE "C" ${o} ${s.value})` : sql<boolean>`(${p.is('date')} AND ${d.value()} ${o} ${s.value})`;
    }
  }
}

/** Typed equality of one array element (alias e) with a scalar. */
function elementEquals(dialect: DialectName, s: Scalar): RawBuilder<boolean> {
  if (dialect === 'postgres') {
    switch (s.kind) {
      case 'null': return sql<boolean>`e.v = 'null'::jsonb`;
      case 'boolean': return sql<boolean>`e.v = ${sql.lit(s.value ? 'true' : 'false')}::jsonb`;
      case 'number': case 'string': return sql<boolean>`e.v = CAST(${JSON.stringify(s.value)} AS jsonb)`;
      case 'date': return sql<boolean>`(jsonb_typeof(e.v -> '$date') = 'string' AND (e.v ->> '$date') = ${s.value})`;
    }
  }
  switch (s.kind) {
    case 'null': return sql<boolean>`e.type = 'null'`;
    case 'boolean': return sql<boolean>`e.type = ${sql.lit(s.value ? 'true' : 'false')}`;
    case 'number': return sql<boolean>`(e.type IN ('integer','real') AND e.value = ${s.value})`;
    case 'string': return sql<boolean>`(e.type = 'text' AND e.value = ${s.value})`;
    case 'date': return sql<boolean>`(e.type = 'object' AND json_type(e.value, '$."$date"') = 'text' AND json_extract(e.value, '$."$date"') = ${s.value})`;
  }
}

/** True when the value at p is an array holding an element equal to s, or a non-array equal to s. */
function hasElement(p: JsonPath, s: Scalar): RawBuilder<boolean> {
  const elements = p.dialect === 'postgres'
    ? sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements(${p.value()}) AS e(v) WHERE ${elementEquals(p.dialect, s)})`
    : sql<boolean>`EXISTS (SELECT 1 FROM json_each(${sql.raw(p.column)}, ${sql.raw(p.sqlitePath)}) AS e WHERE ${elementEquals(p.dialect, s)})`;
  // CASE guarantees the array function only ever sees arrays (PostgreSQL raises on scalars).
  return sql<boolean>`(CASE WHEN ${p.is('array')} THEN ${elements} ELSE ${compare(p, '=', s)} END)`;
}

function like(p: JsonPath, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`(${p.is('string')} AND ${ilike(p.dialect, p.text(), pattern)})`;
}

function isEmpty(p: JsonPath): RawBuilder<boolean> {
  return sql<boolean>`(${p.type()} IS NULL OR ${p.is('null')} OR ${compare(p, '=', { kind: 'string', value: '' })})`;
}

/** Joins terms as a balanced tree, so 1000 terms nest ~10 deep (SQLite caps expression depth at 1000). */
function balanced(parts: RawBuilder<boolean>[], word: 'AND' | 'OR'): RawBuilder<boolean> {
  if (parts.length <= 8) return sql<boolean>`(${sql.join(parts, sql.raw(` ${word} `))})`;
  const mid = Math.ceil(parts.length / 2);
  return sql<boolean>`(${balanced(parts.slice(0, mid), word)} ${sql.raw(word)} ${balanced(parts.slice(mid), word)})`;
}
const or = (parts: RawBuilder<boolean>[]) => (parts.length === 0 ? sql<boolean>`1=0` : balanced(parts, 'OR'));
const and = (parts: RawBuilder<boolean>[]) => (parts.length === 0 ? sql<boolean>`1=1` : balanced(parts, 'AND'));

/** `$in`: one typed IN list per kind of value (numbers, strings), so a long list stays one indexable term. */
function compareIn(p: JsonPath, values: Scalar[]): RawBuilder<boolean> {
  const pg = p.dialect === 'postgres';
  const numbers = values.filter((v): v is Extract<Scalar, { kind: 'number' }> => v.kind === 'number').map((v) => v.value);
  const strings = values.filter((v): v is Extract<Scalar, { kind: 'string' }> => v.kind === 'string').map((v) => v.value);
  const parts: RawBuilder<boolean>[] = values.filter((v) => v.kind !== 'number' && v.kind !== 'string').map((v) => compare(p, '=', v));
  if (numbers.length) {
    parts.push(pg
      ? sql<boolean>`(${p.is('number')} AND ${p.value()} IN (${sql.join(numbers.map((n) => sql`CAST(${JSON.stringify(n)} AS jsonb)`))}))`
      : sql<boolean>`(${p.is('number')} AND ${p.value()} IN (${sql.join(numbers)}))`);
  }
  if (strings.length) {
    parts.push(pg
      ? sql<boolean>`${p.value()} IN (${sql.join(strings.map((v) => sql`CAST(${JSON.stringify(v)} AS jsonb)`))})`
      : sql<boolean>`(${p.is('string')} AND ${p.value()} IN (${sql.join(strings)}))`);
  }
  return or(parts);
}

function compileCondition(dialect: DialectName, field: string, op: FilterOp, value: unknown): RawBuilder<boolean> {
  const where = `filter.${field}`;
  const p = new JsonPath(dialect, pathSegments(field));
  const list = () => (value as unknown[]).map((v) => toScalar(v, where));
  switch (op) {
    case '$eq': return compare(p, '=', toScalar(value, where));
    case '$ne': return sql<boolean>`NOT ${twoValued(dialect, compare(p, '=', toScalar(value, where)))}`;
    case '$gt': case '$gte': case '$lt': case '$lte': {
      const s = toScalar(value, where);
      if (s.kind !== 'number' && s.kind !== 'string' && s.kind !== 'date') throw new FilterError('BAD_VALUE', `${op} takes a number, string or date`, where);
      const cmp: Record<string, Cmp> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
      return compare(p, cmp[op]!, s);
    }
    case '$in': return compareIn(p, list());
    case '$hasSome': return or(list().map((s) => hasElement(p, s)));
    case '$hasAll': return and(list().map((s) => hasElement(p, s)));
    case '$startsWith': return like(p, `${escapeLike(value as string)}%`);
    case '$endsWith': return like(p, `%${escapeLike(value as string)}`);
    case '$contains': return like(p, `%${escapeLike(value as string)}%`);
    case '$exists': return value ? sql<boolean>`NOT (${p.type()} IS NULL OR ${p.is('null')})` : sql<boolean>`(${p.type()} IS NULL OR ${p.is('null')})`;
    case '$isEmpty': return isEmpty(p);
    case '$isNotEmpty': return sql<boolean>`NOT ${twoValued(dialect, isEmpty(p))}`;
    case '$matches': return matchesSpec(p, value as MatchSpec);
  }
}

/** `$matches`: the value, lower-cased with separators folded to '-', equals the pattern's one target. */
function matchesSpec(p: JsonPath, spec: MatchSpec): RawBuilder<boolean> {
  const target = matchTarget(spec);
  const folded = sql`replace(replace(replace(${lowerFor(p.dialect, p.text(), target)}, ' ', '-'), ${'\t'}, '-'), ${'\n'}, '-')`;
  return sql<boolean>`(${p.is('string')} AND ${folded} = ${target})`;
}

/** NULL (a missing field) as false, so NOT never turns an unknown into a match or a miss. */
function twoValued(dialect: DialectName, expr: RawBuilder<boolean>): RawBuilder<boolean> {
  return dialect === 'postgres' ? sql<boolean>`COALESCE(${expr}, false)` : sql<boolean>`COALESCE(${expr}, 0)`;
}

/**
 * `strict` is set below a NOT: there every condition is made two-valued. Elsewhere a NULL acts as
 * false already (WHERE drops it, AND/OR are monotone), and leaving the bare comparison lets the
 * planner use the expression indexes.
 */
export function compileJsonFilter(node: FilterNode, dialect: DialectName, strict = false): RawBuilder<boolean> {
  switch (node.kind) {
    case 'and': return and(node.children.map((c) => compileJsonFilter(c, dialect, strict)));
    case 'or': return or(node.children.map((c) => compileJsonFilter(c, dialect, strict)));
    case 'not': return sql<boolean>`NOT ${compileJsonFilter(node.child, dialect, true)}`;
    case 'cond': {
      const leaf = compileCondition(dialect, node.field, node.op, node.value);
      return strict ? twoValued(dialect, leaf) : leaf;
    }
  }
}

/**
 * ORDER BY terms for one field: type rank (missing/null, boolean, number, string, date, other), then the
 * numeric value, then the text (byte order on both dialects). evaluate.ts sorts the same way.
 */
export function sortTerms(dialect: DialectName, field: string, order: 'ASC' | 'DESC', where: string): RawBuilder<unknown>[] {
  const p = new JsonPath(dialect, pathSegments(field, where));
  const dir = sql.raw(order);
  const rank = sql`(CASE WHEN ${p.type()} IS NULL OR ${p.is('null')} THEN 0 WHEN ${p.is('boolean')} THEN 1 WHEN ${p.is('number')} THEN 2 WHEN ${p.is('string')} THEN 3 WHEN ${p.is('date')} THEN 4 ELSE 5 END)`;
  const num = dialect === 'postgres'
    ? sql`(CASE WHEN ${p.is('number')} THEN (${p.text()})::numeric WHEN ${p.is('boolean')} THEN (CASE WHEN ${p.text()} = 'true' THEN 1 ELSE 0 END) END)`
    : sql`(CASE WHEN ${p.is('number')} OR ${p.is('boolean')} THEN ${p.value()} END)`;
  const d = p.child('$date');
  const text = dialect === 'postgres'
    ? sql`(CASE WHEN ${p.is('string')} THEN ${p.text()} WHEN ${p.is('date')} THEN ${d.text()} END) COLLATE "C"`
    : sql`(CASE WHEN ${p.is('string')} THEN ${p.value()} WHEN ${p.is('date')} THEN ${d.value()} END)`;
  return [sql`${rank} ${dir}`, sql`${num} ${dir}`, sql`${text} ${dir}`];
}

/** A typed GROUP BY / DISTINCT key: SQLite needs the type beside the value (json_extract gives true as 1). */
export function groupKey(dialect: DialectName, field: string, where: string): { type: RawBuilder<unknown>; value: RawBuilder<unknown> } {
  const p = new JsonPath(dialect, pathSegments(field, where));
  const type = dialect === 'postgres' ? p.type() : sql`(CASE ${p.type()} WHEN 'integer' THEN 'number' WHEN 'real' THEN 'number' ELSE ${p.type()} END)`;
  return { type, value: p.value() };
}

/** The value of a field when it is a number, else NULL (aggregates ignore other types). */
export function numberValue(dialect: DialectName, field: string, where: string): RawBuilder<unknown> {
  const p = new JsonPath(dialect, pathSegments(field, where));
  return dialect === 'postgres' ? sql`(CASE WHEN ${p.is('number')} THEN (${p.text()})::float8 END)` : sql`(CASE WHEN ${p.is('number')} THEN ${p.value()} END)`;
}

/** The expression a field index covers (dates index their ISO text). */
export function indexExpression(dialect: DialectName, field: string, isDate: boolean): string {
  const p = new JsonPath(dialect, pathSegments(field, 'index.fields'));
  const target = isDate ? p.child('$date') : p;
  if (dialect === 'sqlite') return `json_extract(data, ${target.sqlitePath})`;
  // Date and string range comparisons run on text in byte order; equality and numbers on jsonb.
  return isDate ? `((data #>> ${target.pgPath}) COLLATE "C")` : `(data #> ${target.pgPath})`;
}

/**
 * A value read back through a typed key (groupKey: `type`, `value`). PostgreSQL returns the jsonb value
 * itself; SQLite's json_extract gives true/false as 1/0 and objects as text, so its type decides.
 */
export function readTypedValue(dialect: DialectName, type: unknown, value: unknown): unknown {
  if (dialect === 'postgres') return value ?? null;
  if (type === 'true') return true;
  if (type === 'false') return false;
  if (type === 'null' || type === null || type === undefined) return null;
  if ((type === 'object' || type === 'array') && typeof value === 'string') return JSON.parse(value);
  return value;
}
