/**
 * Cost of the two edge rules (docs/security.md "Text" and "Revocation"):
 * 1. the wire text guard (http/text-guard.ts) per request on typical bodies, next to the JSON.parse
 *    every body already pays, plus the slow path (a body with \u escapes is walked);
 * 2. the member token-family lookup (identity/service.ts#authenticate): the query alone, and sequential
 *    HTTP latency of one catalog read as a visitor (no lookup) and as a member (one lookup).
 * SQLite by default; PostgreSQL when DATABASE_URL is set. Prints figures only.
 *
 *   npx tsx bench/edges.ts [--runs 2000]
 */
import { randomUUID } from 'node:crypto';
import { assertCleanText, jsonTextMayHoldBadText } from '../packages/server/src/http/text-guard.js';
import { decodeQuery, parseJsonSafely } from '../packages/server/src/http/wire.js';
import { startTestServer, call, asOwner, visitorTokens } from '../packages/server/test/harness.js';
import { issueTokenPair } from '../packages/server/src/domains/identity/service.js';
import { isTokenFamilyActive } from '../packages/server/src/domains/identity/store.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = Math.min(arg('runs', 2000), 100_000);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median nanoseconds per call of fn over RUNS batches of `batch` calls. */
function nsPerCall(fn: () => void, batch = 50): number {
  for (let i = 0; i < 200; i++) fn();
  const samples: number[] = [];
  for (let r = 0; r < Math.min(RUNS, 500); r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / batch);
  }
  return median(samples);
}

const richText = (text: string) => ({ nodes: [{ type: 'PARAGRAPH', id: 'p', nodes: [{ type: 'TEXT', id: 't', textData: { text, decorations: [] } }] }] });
const BODIES: Record<string, unknown> = {
  'V1 product create (~1 KB)': { product: { name: 'Gooseneck Kettle 東京 ☕', productType: 'physical', priceData: { price: 69 }, description: '<p>Precise pour, 1 litre. '.repeat(10), productOptions: [{ name: 'Color', choices: [{ value: '#c0c0c0', description: 'Steel' }, { value: '#222222', description: 'Matte black' }] }] } },
  'V3 product create (~3 KB)': { product: { name: 'Shirt', productType: 'PHYSICAL', description: richText('Organic cotton. '.repeat(40)), variantsInfo: { variants: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, price: { actualPrice: { amount: String(10 + i) } }, choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: `S${i}` } }] })) } } },
  'data bulk insert 100 items (~20 KB)': { dataCollectionId: 'notes', dataItems: Array.from({ length: 100 }, (_, i) => ({ data: { title: `Note ${i} 😀`, body: 'lorem ipsum dolor sit amet '.repeat(5), n: i, tags: ['a', 'b'] } })) },
};

function guardBench(): void {
  console.log('\n## text guard per request (median ns per call)');
  console.log('| body | bytes | JSON.parse | guard, clean (regex scan + query/.r/path walk) | guard, \\u-escaped body (walk) |');
  console.log('|---|---:|---:|---:|---:|');
  const query = decodeQuery(new URLSearchParams('fieldsets=FULL&paging.limit=20'));
  const params = { id: randomUUID() };
  for (const [name, value] of Object.entries(BODIES)) {
    const text = JSON.stringify(value);
    const escaped = text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const parsed = parseJsonSafely(text);
    const parsedEscaped = parseJsonSafely(escaped);
    const parse = nsPerCall(() => { parseJsonSafely(text); });
    const clean = nsPerCall(() => {
      assertCleanText([{ value: params }, { value: query.fields }, { value: query.payload }, { value: jsonTextMayHoldBadText(text) ? parsed : undefined }]);
    });
    const walked = nsPerCall(() => {
      assertCleanText([{ value: params }, { value: query.fields }, { value: query.payload }, { value: jsonTextMayHoldBadText(escaped) ? parsedEscaped : undefined }]);
    });
    console.log(`| ${name} | ${text.length} | ${Math.round(parse)} | ${Math.round(clean)} | ${Math.round(walked)} |`);
  }
}

async function revocationBench(): Promise<void> {
  const t = await startTestServer({ logLevel: 'silent' });
  try {
    const ctx = { requestId: 'bench', deps: t.server.deps, db: t.server.deps.storage.db, dialect: t.server.deps.storage.dialect, caller: { kind: 'owner' as const, apiKeyId: 'bench' }, origin: t.url, ip: '127.0.0.1', log: t.server.deps.log, site: t.site };
    // A realistic table: many members with a few families each.
    const member = await call(t.url, '/members/v1/members', { ...asOwner(t), body: { member: { loginEmail: `bench-${randomUUID()}@example.com` } } });
    const memberId = member.body.member.id as string;
    for (let i = 0; i < 2000; i++) await issueTokenPair(ctx, { siteId: t.site.id, clientId: t.clientId, role: i % 2 ? 'member' : 'visitor', subjectId: randomUUID() });
    const pair = await issueTokenPair(ctx, { siteId: t.site.id, clientId: t.clientId, role: 'member', subjectId: memberId });
    const db = t.server.deps.storage.db;

    const lookups: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await isTokenFamilyActive(db, t.site.id, memberId, pair.familyId);
      lookups.push(performance.now() - start);
    }

    const visitor = (await visitorTokens(t)).accessToken;
    const products = await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: visitor, body: { query: { paging: { limit: 1 } } } });
    const productPath = `/stores-reader/v1/products/${products.body.products[0].id as string}`;
    const latency = async (token: string) => {
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const res = await fetch(`${t.url}${productPath}`, { headers: { authorization: token } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        xs.push(performance.now() - start);
      }
      return median(xs);
    };
    // Warm up (JIT, site and key caches), then interleave to spread machine noise over both.
    await latency(visitor);
    await latency(pair.access_token);
    const v1 = await latency(visitor);
    const m1 = await latency(pair.access_token);
    const v2 = await latency(visitor);
    const m2 = await latency(pair.access_token);
    console.log(`\n## member token-family check (${t.server.deps.storage.dialect}, ${RUNS} runs, refresh_tokens rows: ~2,000)`);
    console.log(`- lookup alone (isTokenFamilyActive): median ${(median(lookups) * 1000).toFixed(0)} µs`);
    console.log(`- GET ${'/stores-reader/v1/products/:id'} sequential median: visitor ${((v1 + v2) / 2).toFixed(3)} ms, member ${((m1 + m2) / 2).toFixed(3)} ms (difference ${(((m1 + m2) - (v1 + v2)) / 2 * 1000).toFixed(0)} µs; rounds ${[v1, m1, v2, m2].map((x) => x.toFixed(3)).join(' / ')})`);
  } finally {
    await t.close();
  }
}

guardBench();
await revocationBench();
