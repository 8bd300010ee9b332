import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../src/storage/filter.js';
import { matches, sortItems } from '../src/domains/data/evaluate.js';
import { startTestServer, type TestServer } from './harness.js';
import { createCollection, dataCall, ok, ownerAuth } from './data-support.js';

/**
 * Property: for random filter trees and sorts, the SQL compiler (through the real HTTP query call,
 * on whichever database the run uses) returns exactly the items, in exactly the order, that the
 * in-memory evaluator picks from the same items. Values mix types on purpose (1 vs true vs "1",
 * null vs missing, dates, arrays, LIKE metacharacters).
 */

const NUMBERS = [-1, 0, 1, 1.5, 2, 10];
const STRINGS = ['', 'a', 'A', 'ab', 'aB', 'b', 'abc', '1', 'true', 'a%', 'a_b', 'x\\y'];
const DATES = ['2020-01-01T00:00:00.000Z', '2021-06-15T12:00:00.000Z', '2024-02-29T23:59:59.999Z'].map(($date) => ({ $date }));
const scalar = fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom(...STRINGS), fc.boolean(), fc.constant(null), fc.constantFrom(...DATES));
const FIELDS = ['a', 'b', 'c.x', 'tags', 'nope'];

type Value = unknown;
const itemValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const item = fc.record({ a: itemValue, b: itemValue, c: fc.oneof(fc.record({ x: itemValue }), scalar, fc.constant(undefined)), tags: itemValue });

const comparable = fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom(...STRINGS), fc.constantFrom(...DATES));
const condition = fc.oneof(
  fc.record({ f: fc.constantFrom(...FIELDS), v: scalar }).map(({ f, v }) => ({ [f]: v })),
  fc.record({ f: fc.constantFrom(...FIELDS), op: fc.constantFrom('$eq', '$ne'), v: scalar }).map(({ f, op, v }) => ({ [f]: { [op]: v } })),
  fc.record({ f: fc.constantFrom(...FIELDS), op: fc.constantFrom('$gt', '$gte', '$lt', '$lte'), v: comparable }).map(({ f, op, v }) => ({ [f]: { [op]: v } })),
  fc.record({ f: fc.constantFrom(...FIELDS), op: fc.constantFrom('$in', '$hasSome', '$hasAll'), v: fc.array(scalar, { maxLength: 3 }) }).map(({ f, op, v }) => ({ [f]: { [op]: v } })),
  fc.record({ f: fc.constantFrom(...FIELDS), op: fc.constantFrom('$startsWith', '$endsWith', '$contains'), v: fc.constantFrom(...STRINGS, '%', '_', 'B') }).map(({ f, op, v }) => ({ [f]: { [op]: v } })),
  fc.record({ f: fc.constantFrom(...FIELDS), v: fc.boolean() }).map(({ f, v }) => ({ [f]: { $exists: v } })),
  fc.record({ f: fc.constantFrom(...FIELDS), op: fc.constantFrom('$isEmpty', '$isNotEmpty') }).map(({ f, op }) => ({ [f]: { [op]: true } })),
);

const { tree } = fc.letrec<{ tree: Record<string, unknown> }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.array(tie('tree'), { minLength: 0, maxLength: 3 }).map((children) => ({ $and: children })),
    fc.array(tie('tree'), { minLength: 0, maxLength: 3 }).map((children) => ({ $or: children })),
    tie('tree').map((child) => ({ $not: child })),
  ),
}));

const sortArb = fc.array(fc.record({ fieldName: fc.constantFrom('a', 'b', 'c.x', 'tags', 'nope'), order: fc.constantFrom('ASC' as const, 'DESC' as const) }), { maxLength: 2 });

describe('filter compiler agrees with the in-memory evaluator', () => {
  let t: TestServer;
  let items: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await startTestServer();
    await createCollection(t, 'prop');
    const generated = fc.sample(item, { numRuns: 80, seed: 42 });
    const dataItems = generated.map((g, i) => ({ id: `i${String(i).padStart(3, '0')}`, data: JSON.parse(JSON.stringify(g)) as Record<string, unknown> }));
    const res = await ok(t, ownerAuth(t), '/bulk/items/insert', { dataCollectionId: 'prop', dataItems });
    expect(res.bulkActionMetadata).toEqual({ totalSuccesses: 80, totalFailures: 0 });
    items = (await ok(t, ownerAuth(t), '/items/query', { dataCollectionId: 'prop', query: { paging: { limit: 1000 } } })).dataItems.map((i: { data: Record<string, unknown> }) => i.data);
    expect(items).toHaveLength(80);
  });
  afterAll(() => t?.close());

  it('returns the same items in the same order for 2000 random filters and sorts', async () => {
    await fc.assert(fc.asyncProperty(tree, sortArb, async (filter, sort) => {
      const body = await ok(t, ownerAuth(t), '/items/query', { dataCollectionId: 'prop', query: { filter, sort, paging: { limit: 1000 } } });
      const node = parseFilter(filter);
      const expected = sortItems(items.filter((i) => matches(node, i)), sort).map((i) => i._id);
      const actual = body.dataItems.map((i: { id: string }) => i.id);
      // Without a sort the server orders by _createdDate DESC then _id; the bulk insert gave every item one date.
      expect(actual).toEqual(expected);
    }), { numRuns: 2000, seed: 7 });
  }, 600_000);

  it('counts agree too', async () => {
    await fc.assert(fc.asyncProperty(tree, async (filter) => {
      const body = await ok(t, ownerAuth(t), '/items/count', { dataCollectionId: 'prop', filter });
      expect(body.totalCount).toBe(items.filter((i) => matches(parseFilter(filter), i)).length);
    }), { numRuns: 300, seed: 11 });
  }, 300_000);

  it('refuses filters over the bounds, $regex and case-sensitive $matches, changing nothing', async () => {
    const q = (filter: unknown) => dataCall(t, ownerAuth(t), '/items/query', { dataCollectionId: 'prop', query: { filter } });
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 11; i++) deep = { $and: [deep] };
    const tooDeep = await q(deep);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.details.validationError.fieldViolations[0].violatedRule).toBe('MAX');
    const many = await q({ $or: Array.from({ length: 201 }, (_, i) => ({ a: i })) });
    expect(many.status).toBe(400);
    expect(many.body.details.validationError.fieldViolations[0].data.problem).toBe('TOO_MANY_CONDITIONS');
    const bigIn = await q({ a: { $in: Array.from({ length: 1001 }, (_, i) => i) } });
    expect(bigIn.body.details.validationError.fieldViolations[0].data.problem).toBe('TOO_MANY_VALUES');
    const okIn = await q({ a: { $in: Array.from({ length: 1000 }, (_, i) => i) } });
    expect(okIn.status).toBe(200);
    const regex = await q({ b: { $regex: '^a' } });
    expect(regex.status).toBe(400);
    expect(regex.body.details.applicationError).toEqual({ code: 'WDE0070', description: '$regex keyword is not allowed.', data: {} });
    const cs = await q({ b: { $matches: { ignoreCase: false, spec: [{ type: 'literal', value: 'a' }] } } });
    expect(cs.status).toBe(400);
    expect(cs.body.details.validationError.fieldViolations[0].data.problem).toBe('CASE_SENSITIVE_MATCH');
    const unknown = await q({ b: { $like: 'a' } });
    expect(unknown.body.details.validationError.fieldViolations[0].data.problem).toBe('UNKNOWN_OPERATOR');
    const injection = await q({ "a') OR 1=1 --": 1 });
    expect(injection.body.details.validationError.fieldViolations[0].data.problem).toBe('UNKNOWN_FIELD');
    const sortInjection = await dataCall(t, ownerAuth(t), '/items/query', { dataCollectionId: 'prop', query: { sort: [{ fieldName: 'a; DROP TABLE data_items', order: 'ASC' }] } });
    expect(sortInjection.status).toBe(400);
    const big = await q({ a: 2 ** 53 });
    expect(big.status).toBe(400);
  });
});
