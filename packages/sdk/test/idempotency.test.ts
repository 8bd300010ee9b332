import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { createClient, IDEMPOTENCY_KEY_HEADER, OAuthStrategy, VitrineError, withIdempotencyKey } from '../src/index.js';
import { items } from '../src/modules/data/index.js';
import { createOpenCollection, recordingFetch } from './helpers.js';

/** `withIdempotencyKey` over real HTTP: data item insert is a route the server declares idempotent. */

let t: TestServer;
let rec: ReturnType<typeof recordingFetch>;
let client: ReturnType<typeof makeClient>;

function makeClient() {
  return createClient({ modules: { items }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: rec.fetch });
}
const lastInsert = () => rec.calls.filter((c) => c.url.pathname === '/wix-data/v2/items').at(-1)!;

beforeAll(async () => {
  t = await startTestServer();
  rec = recordingFetch();
  client = makeClient();
  await createOpenCollection(t, 'notes', [{ key: 'text', type: 'TEXT' }]);
});
afterAll(() => t?.close());

describe('withIdempotencyKey', () => {
  it('acts once for a repeated key and answers the first result again', async () => {
    const keyed = withIdempotencyKey(client, 'note-1');
    const first = await keyed.items.insert('notes', { text: 'hello' });
    expect(lastInsert().headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('note-1');
    const again = await withIdempotencyKey(client, 'note-1').items.insert('notes', { text: 'hello' });
    expect(lastInsert().headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('note-1');
    expect(again).toEqual(first);
    expect(typeof first._id).toBe('string');
    const all = await client.items.query('notes').find();
    expect(all.items.map((i) => [i._id, i.text])).toEqual([[first._id, 'hello']]);
  });

  it('refuses the same key with a different body with the 409 error and inserts nothing', async () => {
    let caught: unknown;
    try {
      await withIdempotencyKey(client, 'note-1').items.insert('notes', { text: 'other' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(VitrineError);
    const error = caught as VitrineError;
    expect([error.kind, error.code, error.status]).toEqual(['application', 'IDEMPOTENCY_KEY_REUSED', 409]);
    expect(error.message).toBe('This idempotency key was used with a different request');
    expect(await client.items.count('notes')).toBe(1);
  });

  it('sends no key without it, and leaves the original client unkeyed', async () => {
    const a = await client.items.insert('notes', { text: 'plain' });
    expect(lastInsert().headers.has(IDEMPOTENCY_KEY_HEADER)).toBe(false);
    const b = await client.items.insert('notes', { text: 'plain' });
    expect(lastInsert().headers.has(IDEMPOTENCY_KEY_HEADER)).toBe(false);
    expect(b._id).not.toBe(a._id);
    expect(await client.items.count('notes')).toBe(3);
  });

  it('puts the key on fetchWithAuth calls of the copy too', async () => {
    const res = await withIdempotencyKey(client, 'note-raw').fetchWithAuth('/wix-data/v2/items', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dataCollectionId: 'notes', dataItem: { data: { text: 'raw' } } }),
    });
    expect(res.status).toBe(200);
    expect(rec.calls.at(-1)!.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('note-raw');
  });
});
