/**
 * Completed checkouts per second: cart -> checkout -> order -> test card payment captured, driven over
 * HTTP by a separate load process (bench/checkout-load.ts), with p50 / p99 of one whole checkout
 * (four calls: add to cart, create checkout, create the order and charge the card, empty the cart). Beside it, in the same run, the baseline: the same buyers reading one product in a loop.
 * SQLite by default; PostgreSQL with DATABASE_URL.
 *
 *   npx tsx bench/checkout.ts [--connections 16] [--seconds 10]
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call, startTestServer } from '../packages/server/test/harness.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CONNECTIONS = arg('connections', 16);
const SECONDS = arg('seconds', 10);
/** Products the buyers spread over, so stock rows are not one hot spot. */
const PRODUCTS = 32;

const t = await startTestServer({ logLevel: 'silent' });
const productIds: string[] = [];
for (let i = 0; i < PRODUCTS; i++) {
  const res = await call(t.url, '/stores/v1/products', { auth: t.apiKey, siteId: t.site.id, body: { product: { name: `Bench item ${i}`, priceData: { price: 5 }, stock: { trackInventory: true, quantity: 10_000_000 } } } });
  if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
  productIds.push(res.body.product.id);
}

interface Result { completed: number; perSecond: number; requestsPerSecond: number; p50: number; p99: number; errors: string[] }

function load(mode: 'checkout' | 'baseline', durationMs: number): Promise<Result> {
  const job = { mode, url: t.url, apiKey: t.apiKey, siteId: t.site.id, clientId: t.clientId, productIds, connections: CONNECTIONS, durationMs };
  const script = fileURLToPath(new URL('./checkout-load.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', script, JSON.stringify(job)], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Result);
    });
  });
}

await load('checkout', 2_000); // warm-up: JIT, statement caches, first pages of every table
const baseline = await load('baseline', SECONDS * 1000);
const checkout = await load('checkout', SECONDS * 1000);
await t.server.jobs.whenIdle();
const paid = await t.server.deps.storage.db.selectFrom('payments').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'APPROVED').executeTakeFirstOrThrow();

const f = (n: number) => n.toFixed(1);
console.log(`${t.server.deps.storage.dialect}, ${CONNECTIONS} buyers, ${SECONDS} s each, load from a separate process`);
console.log(`baseline  product reads      ${f(baseline.perSecond).padStart(8)} /s   p50 ${f(baseline.p50)} ms  p99 ${f(baseline.p99)} ms`);
console.log(`checkout  paid orders        ${f(checkout.perSecond).padStart(8)} /s   p50 ${f(checkout.p50)} ms  p99 ${f(checkout.p99)} ms   (${f(checkout.requestsPerSecond)} HTTP calls/s)`);
console.log(`ratio     paid orders / baseline reads: ${(checkout.perSecond / baseline.perSecond).toFixed(3)}; payments APPROVED in the database: ${Number(paid.n)}`);
for (const e of [...baseline.errors, ...checkout.errors]) console.log(`error: ${e}`);
await t.close();
