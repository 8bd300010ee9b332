/**
 * Cart throughput over HTTP, beside a same-run baseline: add-to-cart and estimate-totals requests per
 * second against the catalog product GET, each driven by autocannon in its own process
 * (bench/cart-load.ts) while the server runs here. The store has a cart rule, a tax region and a
 * shipping region, and each estimated cart holds 5 lines, so estimate-totals does the full pricing.
 * Targets: add-to-cart >= 20% of the baseline, estimate-totals >= 15%. SQLite by default; PostgreSQL
 * with DATABASE_URL.
 *
 *   npx tsx bench/cart.ts [--connections 16] [--seconds 8]
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call, startTestServer, visitorTokens } from '../packages/server/test/harness.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CONNECTIONS = arg('connections', 16);
const SECONDS = arg('seconds', 8);
const TOKENS = 32;
const APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const TARGET = { addToCart: 0.2, estimate: 0.15 };

const t = await startTestServer({ logLevel: 'silent' });
const owner = { auth: t.apiKey, siteId: t.site.id };
const ok = async (p: Promise<{ status: number; body: unknown }>) => {
  const r = await p;
  if (r.status !== 200) throw new Error(`setup: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, Record<string, string>>;
};

const productIds: string[] = [];
for (let i = 0; i < 5; i++) {
  const body = await ok(call(t.url, '/stores/v1/products', { ...owner, body: { product: { name: `Bench cart item ${i}`, priceData: { price: 5 + i }, weight: 0.5, stock: { trackInventory: true, quantity: 10_000_000 } } } }));
  productIds.push(body.product!.id!);
}
await ok(call(t.url, '/ecom/v1/discount-rules', { ...owner, body: { discountRule: { name: 'ten', active: true, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 10 }] } } } }));
const region = await ok(call(t.url, '/billing/v1/tax-regions', { ...owner, body: { taxRegion: { country: 'US', subdivision: 'US-CA', taxIncludedInPrice: false } } }));
await ok(call(t.url, `/billing/v1/tax-regions/${region.taxRegion!.id}/manual-rates`, { ...owner, method: 'PUT', body: { manualRates: [{ taxRate: '0.0725', taxName: 'CA', jurisdiction: 'CA', jurisdictionType: 'STATE' }] } }));
await ok(call(t.url, '/ecom/v1/shipping-regions', { ...owner, body: { shippingRegion: { name: 'US', destinations: [{ country: 'US' }], options: [{ code: 'STD', title: 'Standard', rate: { type: 'FLAT', price: '4.95' }, freeOver: '100.00' }] } } }));

const addTokens: string[] = [];
const estimateTokens: string[] = [];
for (let i = 0; i < TOKENS; i++) {
  addTokens.push((await visitorTokens(t)).accessToken);
  const token = (await visitorTokens(t)).accessToken;
  await ok(call(t.url, '/ecom/v1/carts/current/add-to-cart', { auth: token, body: { lineItems: productIds.map((id) => ({ quantity: 2, catalogReference: { catalogItemId: id, appId: APP_ID } })) } }));
  estimateTokens.push(token);
}

interface Figures { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number }
function load(job: { method: 'GET' | 'POST'; path: string; body?: unknown; tokens: string[] }): Promise<Figures> {
  const script = fileURLToPath(new URL('./cart-load.ts', import.meta.url));
  const input = JSON.stringify({ ...job, url: t.url, connections: CONNECTIONS, seconds: SECONDS });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', script, input], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Figures);
    });
  });
}

const baseline = await load({ method: 'GET', path: `/stores-reader/v1/products/${productIds[0]}`, tokens: estimateTokens });
const add = await load({ method: 'POST', path: '/ecom/v1/carts/current/add-to-cart', body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productIds[1], appId: APP_ID } }] }, tokens: addTokens });
const estimate = await load({ method: 'POST', path: '/ecom/v1/carts/current/estimate-totals', body: { shippingAddress: { country: 'US', subdivision: 'US-CA' } }, tokens: estimateTokens });

const row = (name: string, f: Figures, target?: number) => {
  const ratio = f.rps / baseline.rps;
  const verdict = target === undefined ? '' : ` (target >= ${target}: ${ratio >= target ? 'met' : 'NOT met'})`;
  console.log(`${name.padEnd(22)} ${f.rps.toFixed(0).padStart(7)} req/s  p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(5)} ms  non-2xx ${f.non2xx}  ratio ${ratio.toFixed(3)}${verdict}`);
};
console.log(`cart bench: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${CONNECTIONS} connections, ${SECONDS} s each, ${TOKENS} carts per endpoint`);
row('product GET (baseline)', baseline);
row('add-to-cart', add, TARGET.addToCart);
row('estimate-totals', estimate, TARGET.estimate);
await t.close();
