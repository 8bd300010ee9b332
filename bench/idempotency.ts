/**
 * Cost of an Idempotency-Key on a data item insert over HTTP (owner API key), beside the same insert
 * without it, and a replay (the stored first response). Sequential calls, interleaved in rounds so
 * load from other processes hits all three alike. SQLite by default; PostgreSQL with DATABASE_URL.
 *
 *   npx tsx bench/idempotency.ts [--calls 300]
 */
import { startTestServer, call } from '../packages/server/test/harness.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CALLS = arg('calls', 300);
const ROUNDS = 5;

const t = await startTestServer();
const auth = { authorization: t.apiKey, 'wix-site-id': t.site.id, 'content-type': 'application/json' };
await call(t.url, '/wix-data/v2/collections', {
  auth: t.apiKey, siteId: t.site.id,
  body: { collection: { id: 'bench', displayName: 'bench', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } },
});
const insert = (n: number, key?: string) => fetch(`${t.url}/wix-data/v2/items`, {
  method: 'POST', headers: key ? { ...auth, 'Idempotency-Key': key } : auth,
  body: JSON.stringify({ dataCollectionId: 'bench', dataItem: { data: { n, title: 'bench item' } } }),
});
const replayKey = 'bench-replay';
await (await insert(-1, replayKey)).arrayBuffer();

const kinds: Record<string, (i: number) => Promise<Response>> = {
  'insert, no key': (i) => insert(i),
  'insert, fresh key': (i) => insert(i, `bench-${i}`),
  'replay of one key': () => insert(-1, replayKey),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
let n = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(kinds)) {
    for (let i = 0; i < CALLS / ROUNDS; i++) {
      const t0 = performance.now();
      const res = await fn(n++);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
      samples[name]!.push(performance.now() - t0);
    }
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
console.log(`${t.server.deps.storage.dialect}, ${CALLS} sequential calls each`);
for (const [name, xs] of Object.entries(samples)) {
  console.log(`${name.padEnd(20)} p50 ${pct(xs, 50).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms`);
}
await t.close();
