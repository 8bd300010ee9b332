import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { createCollection, dataCall, ok, ownerAuth } from './data-support.js';
import { matches } from '../src/domains/data/evaluate.js';
import { parseFilter } from '../src/storage/filter.js';

/** `$matches`: the public client's case-insensitive match of URL-ized text ("hello-world" = "Hello World"). */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await createCollection(t, 'pages');
  await ok(t, ownerAuth(t), '/bulk/items/insert', {
    dataCollectionId: 'pages',
    dataItems: ['Hello World', 'hello-world', 'HELLO\tworld', 'Hello\nWorld', 'Hello  World', 'HelloWorld', 'Hello World again', 'say Hello World']
      .map((title, i) => ({ id: `p${i}`, data: { title } })).concat([{ id: 'p-num', data: { title: 42 } } as never]),
  });
});
afterAll(() => t?.close());

const helloWorld = { ignoreCase: true, spec: [{ type: 'literal', value: 'hello' }, { type: 'anyOf', value: ' \t\n-' }, { type: 'literal', value: 'WORLD' }] };

async function titles(filter: unknown): Promise<string[]> {
  const res = await ok(t, ownerAuth(t), '/items/query', { dataCollectionId: 'pages', query: { filter, sort: [{ fieldName: '_id', order: 'ASC' }] } });
  return (res.dataItems as { data: { title: string } }[]).map((i) => i.data.title);
}

describe('$matches', () => {
  it('matches whole values, ignoring case, with one separator of space, tab, newline or dash per anyOf', async () => {
    const expected = ['Hello World', 'hello-world', 'HELLO\tworld', 'Hello\nWorld'];
    expect(await titles({ title: { $matches: helloWorld } })).toEqual(expected);
    // The in-memory evaluator agrees (it backs the property tests of the compiler).
    const all = ['Hello World', 'hello-world', 'HELLO\tworld', 'Hello\nWorld', 'Hello  World', 'HelloWorld', 'Hello World again', 'say Hello World', 42];
    const node = parseFilter({ title: { $matches: helloWorld } });
    expect(all.filter((title) => matches(node, { title }))).toEqual(expected);
  });

  it('combines with other conditions and under $not', async () => {
    expect(await titles({ $and: [{ title: { $matches: helloWorld } }, { title: { $startsWith: 'hello-' } }] })).toEqual(['hello-world']);
    expect(await titles({ $not: { title: { $matches: helloWorld } } })).toEqual([42, 'Hello  World', 'HelloWorld', 'Hello World again', 'say Hello World']);
  });

  it('refuses a case-sensitive match and malformed patterns with field violations', async () => {
    for (const bad of [
      { ...helloWorld, ignoreCase: false },
      { ignoreCase: true, spec: [] },
      { ignoreCase: true, spec: [{ type: 'anyOf', value: 'xyz' }] },
      { ignoreCase: true, spec: [{ type: 'regex', value: '.*' }] },
      'hello',
    ]) {
      const res = await dataCall(t, ownerAuth(t), '/items/query', { dataCollectionId: 'pages', query: { filter: { title: { $matches: bad } } } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.details.validationError.fieldViolations[0].field).toBe('query.filter.title');
    }
  });

  it('is a 400 on catalog fields, which are not URL-ized text', async () => {
    const visitor = (await visitorTokens(t)).accessToken;
    const res = await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { filter: { name: { $matches: helloWorld } } } } });
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'query.filter.name', violatedRule: 'FIELD_NOT_ALLOWED' });
  });
});
