/**
 * Cart throughput over HTTP, beside a same-run baseline: add-to-cart and estimate-totals requests per
 * second against the catalog product GET, each driven by autocannon in its own process
 * (bench/cart-load.ts) while the server runs here. The store has a cart rule, a tax region and a
 * shipping region, and each estimated cart holds 5 lines, so estimate-totals does the full pricing.
 * Targets: add-to-cart >= 20% of the baseline, estimate-totals >= 15%. SQLite by default; PostgreSQL
 * with DATABASE_URL.
 *
 *   npx tsx bench/cart.ts [--connections 16] [--seconds 8]
 *
 * `runCartBench(options)` runs the same and answers the figures (for a suite runner).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { call, startTestServer, visitorTokens } from '../packages/server/test/harness.js';

const TOKENS = 32;
const APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** Targets as ratios to the same run's product GET. */
export const CART_TARGETS = { addToCart: 0.2, estimate: 0.15 };

export interface CartFigures { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number }
export interface CartBenchResult {
  database: 'SQLite' | 'PostgreSQL'; connections: number; seconds: number;
  baseline: CartFigures; addToCart: CartFigures; estimate: CartFigures;
  ratios: { addToCart: number; estimate: number };
  targetsMet: { addToCart: boolean; estimate: boolean };
}

export async function runCartBench(options: { connections?: number; seconds?: number } = {}): Promise<CartBenchResult> {
  const CONNECTIONS = options.connections ?? 16;
  const SECONDS = options.seconds ?? 8;
  const t = await startTestServer({ logLevel: 'silent' });
  try {
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

    function load(job: { method: 'GET' | 'POST'; path: string; body?: unknown; tokens: string[] }): Promise<CartFigures> {
      const script = fileURLToPath(new URL('./cart-load.ts', import.meta.url));
      const input = JSON.stringify({ ...job, url: t.url, connections: CONNECTIONS, seconds: SECONDS });
      return new Promise((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', script, input], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as CartFigures);
        });
      });
    }

    const baseline = await load({ method: 'GET', path: `/stores-reader/v1/products/${productIds[0]}`, tokens: estimateTokens });
    const add = await load({ method: 'POST', path: '/ecom/v1/carts/current/add-to-cart', body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productIds[1], appId: APP_ID } }] }, tokens: addTokens });
    const estimate = await load({ method: 'POST', path: '/ecom/v1/carts/current/estimate-totals', body: { shippingAddress: { country: 'US', subdivision: 'US-CA' } }, tokens: estimateTokens });

    const ratios = { addToCart: add.rps / baseline.rps, estimate: estimate.rps / baseline.rps };
    return {
      database: process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite', connections: CONNECTIONS, seconds: SECONDS, baseline, addToCart: add, estimate, ratios,
      targetsMet: { addToCart: ratios.addToCart >= CART_TARGETS.addToCart, estimate: ratios.estimate >= CART_TARGETS.estimate },
    };
  } finally {
    await t.close();
  }
}

export function printCartBench(r: CartBenchResult): void {
  const row = (name: string, f: CartFigures, target?: number) => {
    const ratio = f.rps / r.baseline.rps;
    const verdict = target === undefined ? '' : ` (target >= ${target}: ${ratio >= target ? 'met' : 'NOT met'})`;
    console.log(`${name.padEnd(22)} ${f.rps.toFixed(0).padStart(7)} req/s  p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(5)} ms  non-2xx ${f.non2xx}  ratio ${ratio.toFixed(3)}${verdict}`);
  };
  console.log(`cart bench: ${r.database}, ${r.connections} connections, ${r.seconds} s each, ${TOKENS} carts per endpoint`);
  row('product GET (baseline)', r.baseline);
  row('add-to-cart', r.addToCart, CART_TARGETS.addToCart);
  row('estimate-totals', r.estimate, CART_TARGETS.estimate);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  printCartBench(await runCartBench({ connections: arg('connections', 16), seconds: arg('seconds', 8) }));
}
