import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type ApiResponse, type TestServer } from './harness.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../src/storage/idempotency.js';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { createApp } from '../src/http/app.js';
import { route } from '../src/http/route.js';
import { operationError, runOperation } from '../src/operations/index.js';
import { effectsOf, ensureEffectsTable, threeSteps } from './operations-fixture.js';

/** Idempotency-Key over real HTTP: data item insert, bulk insert and V1 product create (docs/operations.md). */

let t: TestServer;
const owner = () => asOwner(t);
const PRODUCTS = '/stores-reader/v1/products/query-platformized';

beforeAll(async () => {
  t = await startTestServer();
  const res = await call(t.url, '/wix-data/v2/collections', {
    ...owner(),
    body: { collection: { id: 'notes', displayName: 'notes', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } },
  });
  expect(res.status).toBe(200);
});
afterAll(() => t?.close());

/** Same call as `call`, with the raw response text kept so replays can be compared byte for byte. */
async function raw(path: string, body: unknown, headers: Record<string, string> = {}, auth = owner()): Promise<ApiResponse & { text: string }> {
  const res = await fetch(new URL(path, t.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth.auth!, 'wix-site-id': auth.siteId!, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

const countNotes = async (filter?: unknown): Promise<number> => {
  const res = await call(t.url, '/wix-data/v2/items/count', { ...owner(), body: { dataCollectionId: 'notes', filter } });
  expect(res.status).toBe(200);
  return res.body.totalCount;
};

const productTotal = async (): Promise<number> => (await call(t.url, PRODUCTS, { ...owner(), body: {} })).body.metadata.total;

const key = () => `k-${crypto.randomUUID()}`;

describe('data item insert with Idempotency-Key', () => {
  it('the same request twice returns the identical first response and writes once', async () => {
    const k = key();
    const before = await countNotes();
    const body = { dataCollectionId: 'notes', dataItem: { data: { title: 'once', tag: k } } };
    const first = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.body.dataItem.id).toBe(first.body.dataItem.id);
    // Key order in the body does not matter: the hash is over canonical JSON.
    const reordered = await raw('/wix-data/v2/items', { dataItem: { data: { tag: k, title: 'once' } }, dataCollectionId: 'notes' }, { 'Idempotency-Key': k });
    expect(reordered.text).toBe(first.text);
    expect(await countNotes()).toBe(before + 1);
    expect(await countNotes({ tag: k })).toBe(1);
  });

  it('20 concurrent requests with one key write once and all get the same answer', async () => {
    const k = key();
    const before = await countNotes();
    const body = { dataCollectionId: 'notes', dataItem: { data: { title: 'burst', tag: k } } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw('/wix-data/v2/items', body, { 'Idempotency-Key': k })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await countNotes()).toBe(before + 1);
    expect(await countNotes({ tag: k })).toBe(1);
  });

  it('a different body under the same key is refused and changes nothing', async () => {
    const k = key();
    const first = await raw('/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: 'a', tag: k } } }, { 'Idempotency-Key': k });
    expect(first.status).toBe(200);
    const before = await countNotes();
    const other = await raw('/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: 'b', tag: k } } }, { 'Idempotency-Key': k });
    expect(other.status).toBe(409);
    expect(other.body.details.applicationError.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await countNotes()).toBe(before);
    expect(await countNotes({ title: 'b', tag: k })).toBe(0);
    // The first result still answers the first request.
    const again = await raw('/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: 'a', tag: k } } }, { 'Idempotency-Key': k });
    expect(again.text).toBe(first.text);
  });

  it('a key is per caller: another API key of the site with the same key writes its own item', async () => {
    const k = key();
    const { apiKey } = await createApiKey(t.server.deps.storage.db, { siteId: t.site.id, name: 'second' });
    const body = { dataCollectionId: 'notes', dataItem: { data: { title: 'mine', tag: k } } };
    const a = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k });
    const b = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k }, { auth: apiKey, siteId: t.site.id });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.dataItem.id).not.toBe(a.body.dataItem.id);
    expect(await countNotes({ tag: k })).toBe(2);
  });

  it('a failed first attempt leaves no record: the retry runs again', async () => {
    const k = key();
    const body = { dataCollectionId: 'later', dataItem: { data: { title: 'x', tag: k } } };
    const missing = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k });
    expect(missing.status).toBe(404);
    const made = await call(t.url, '/wix-data/v2/collections', {
      ...owner(),
      body: { collection: { id: 'later', displayName: 'later', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } },
    });
    expect(made.status).toBe(200);
    const retried = await raw('/wix-data/v2/items', body, { 'Idempotency-Key': k });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const count = await call(t.url, '/wix-data/v2/items/count', { ...owner(), body: { dataCollectionId: 'later' } });
    expect(count.body.totalCount).toBe(1);
  });

  it('a malformed key is a 400 field violation and writes nothing', async () => {
    const before = await countNotes();
    for (const bad of ['has space', 'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1), 'ünï', '']) {
      const res = await raw('/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: 'bad' } } }, { 'Idempotency-Key': bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.details.validationError.fieldViolations[0].field).toBe('Idempotency-Key');
    }
    const longest = await raw('/wix-data/v2/items', { dataCollectionId: 'notes', dataItem: { data: { title: 'longest' } } }, { 'Idempotency-Key': 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH) });
    expect(longest.status).toBe(200);
    expect(await countNotes()).toBe(before + 1);
  });

  it('without the header nothing changes: two identical inserts make two items', async () => {
    const tag = key();
    const body = { dataCollectionId: 'notes', dataItem: { data: { title: 'plain', tag } } };
    const a = await raw('/wix-data/v2/items', body);
    const b = await raw('/wix-data/v2/items', body);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.dataItem.id).not.toBe(b.body.dataItem.id);
    expect(await countNotes({ tag })).toBe(2);
  });

  it('routes that did not opt in ignore the header', async () => {
    const k = key();
    const body = { dataCollectionId: 'notes', dataItem: { data: { title: 'saved', tag: k } } };
    const a = await raw('/wix-data/v2/items/save', body, { 'Idempotency-Key': k });
    const b = await raw('/wix-data/v2/items/save', body, { 'Idempotency-Key': k });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await countNotes({ tag: k })).toBe(2);
  });
});

describe('bulk insert with Idempotency-Key', () => {
  it('replays the first result and inserts the batch once', async () => {
    const k = key();
    const body = { dataCollectionId: 'notes', dataItems: [1, 2, 3].map((n) => ({ data: { title: `bulk ${n}`, tag: k } })) };
    const first = await raw('/wix-data/v2/bulk/items/insert', body, { 'Idempotency-Key': k });
    expect(first.status).toBe(200);
    expect(first.body.bulkActionMetadata.totalSuccesses).toBe(3);
    const second = await raw('/wix-data/v2/bulk/items/insert', body, { 'Idempotency-Key': k });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await countNotes({ tag: k })).toBe(3);
  });
});

describe('V1 product create with Idempotency-Key', () => {
  it('creates one product for repeated and concurrent requests, refuses another body', async () => {
    const k = key();
    const before = await productTotal();
    const body = { product: { name: `Idem ${k}`, priceData: { price: 12 }, productType: 'physical' } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw('/stores/v1/products', body, { 'Idempotency-Key': k })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const again = await raw('/stores/v1/products', body, { 'Idempotency-Key': k });
    expect(again.text).toBe(answers[0]!.text);
    const other = await raw('/stores/v1/products', { product: { ...body.product, name: 'Another' } }, { 'Idempotency-Key': k });
    expect(other.status).toBe(409);
    expect(other.body.details.applicationError.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await productTotal()).toBe(before + 1);
  });
});

describe("routes declared idempotent: 'handler' (a keyed multi-step operation)", () => {
  it('hands the key to the handler, whose keyed operation answers repeats with its first outcome', async () => {
    await ensureEffectsTable(t.server.deps.storage.db);
    // What cart completion will look like: the route passes the key on to runOperation.
    const checkout = route({
      method: 'POST', path: '/test/checkout', access: 'elevated', summary: 'test', idempotent: 'handler',
      request: z.object({ cart: z.string().max(50), refuse: z.boolean().optional() }),
      handler: async (ctx, input, call) => {
        const outcome = await runOperation(ctx, threeSteps, { cart: input.cart, ...(input.refuse ? { refuseAt: 'confirm' as const } : {}) }, call?.idempotencyKey ? { key: call.idempotencyKey } : {});
        const error = operationError(outcome);
        if (error) throw error;
        return { operationId: outcome.operationId, state: outcome.state, key: call?.idempotencyKey ?? null };
      },
    });
    const app = createApp(t.server.deps, [checkout]);
    const server = await new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => s.close(() => done())),
      }));
    });
    try {
      const post = (body: unknown, k?: string) => call(server.url, '/test/checkout', { ...owner(), body, headers: k ? { 'Idempotency-Key': k } : {} });
      const k = key();
      const answers = await Promise.all(Array.from({ length: 10 }, () => post({ cart: 'h1' }, k)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const id = answers[0]!.body.operationId;
      expect(answers.every((a) => a.body.operationId === id && a.body.key === k)).toBe(true);
      expect(await effectsOf(t.server.deps.storage.db, id)).toEqual(['run:reserve', 'run:charge', 'run:confirm']);
      const reused = await post({ cart: 'h2' }, k);
      expect([reused.status, reused.body.details.applicationError.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
      // A refused operation answers its repeat with the same error, compensated once.
      const k2 = key();
      const refused = await post({ cart: 'h3', refuse: true }, k2);
      const again = await post({ cart: 'h3', refuse: true }, k2);
      expect([refused.status, refused.body.details.applicationError.code]).toEqual([409, 'OUT_OF_STOCK']);
      expect(again.body).toEqual(refused.body);
      // Without the header every call is a new operation.
      const plain = [await post({ cart: 'h4' }), await post({ cart: 'h4' })];
      expect(plain[0]!.body.operationId).not.toBe(plain[1]!.body.operationId);
      expect(plain[0]!.body.key).toBeNull();
      const bad = await post({ cart: 'h5' }, 'bad key');
      expect(bad.body.details.validationError.fieldViolations[0].field).toBe('Idempotency-Key');
    } finally {
      await server.close();
    }
  });
});
