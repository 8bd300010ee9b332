/**
 * Completed checkouts per second: cart -> checkout -> order -> test card payment captured, driven over
 * HTTP by a separate load process (bench/checkout-load.ts), with p50 / p99 of one whole checkout
 * (three calls: add to cart, create checkout, create the order and charge the card; the order removes
 * the cart). Beside it, in the same run, the baseline: the same buyers reading one product in a loop.
 * Target: >= 300 paid orders/s on SQLite on 2 cores. SQLite by default; PostgreSQL with DATABASE_URL.
 *
 *   npx tsx bench/checkout.ts [--connections 16] [--seconds 10]
 *
 * `runCheckoutBench(options)` runs the same and answers the figures (for a suite runner).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { call, startTestServer } from '../packages/server/test/harness.js';

/** Products the buyers spread over, so stock rows are not one hot spot. */
const PRODUCTS = 32;
/** Paid orders per second the checkout path must reach on SQLite on a 2-core machine. */
export const CHECKOUT_TARGET_PER_SECOND = 300;
const WARM_UP_MS = 2_000;

export interface CheckoutLoadResult { completed: number; perSecond: number; requestsPerSecond: number; p50: number; p99: number; errors: string[] }
export interface CheckoutBenchResult {
  dialect: string; connections: number; seconds: number;
  baseline: CheckoutLoadResult; checkout: CheckoutLoadResult;
  /** Paid orders per second over baseline product reads per second, same run. */
  ratio: number;
  approvedPayments: number;
  targetMet: boolean;
}

export async function runCheckoutBench(options: { connections?: number; seconds?: number } = {}): Promise<CheckoutBenchResult> {
  const connections = options.connections ?? 16;
  const seconds = options.seconds ?? 10;
  const t = await startTestServer({ logLevel: 'silent' });
  try {
    const productIds: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const res = await call(t.url, '/stores/v1/products', { auth: t.apiKey, siteId: t.site.id, body: { product: { name: `Bench item ${i}`, priceData: { price: 5 }, stock: { trackInventory: true, quantity: 10_000_000 } } } });
      if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
      productIds.push(res.body.product.id);
    }
    const load = (mode: 'checkout' | 'baseline', durationMs: number): Promise<CheckoutLoadResult> => {
      const job = { mode, url: t.url, apiKey: t.apiKey, siteId: t.site.id, clientId: t.clientId, productIds, connections, durationMs };
      const script = fileURLToPath(new URL('./checkout-load.ts', import.meta.url));
      return new Promise((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', script, JSON.stringify(job)], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as CheckoutLoadResult);
        });
      });
    };
    await load('checkout', WARM_UP_MS); // JIT, statement caches, first pages of every table
    const baseline = await load('baseline', seconds * 1000);
    const checkout = await load('checkout', seconds * 1000);
    await t.server.jobs.whenIdle();
    const paid = await t.server.deps.storage.db.selectFrom('payments').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'APPROVED').executeTakeFirstOrThrow();
    const dialect = t.server.deps.storage.dialect;
    return {
      dialect, connections, seconds, baseline, checkout, ratio: checkout.perSecond / baseline.perSecond, approvedPayments: Number(paid.n),
      targetMet: checkout.perSecond >= CHECKOUT_TARGET_PER_SECOND,
    };
  } finally {
    await t.close();
  }
}

export function printCheckoutBench(r: CheckoutBenchResult): void {
  const f = (n: number) => n.toFixed(1);
  console.log(`${r.dialect}, ${r.connections} buyers, ${r.seconds} s each, load from a separate process`);
  console.log(`baseline  product reads      ${f(r.baseline.perSecond).padStart(8)} /s   p50 ${f(r.baseline.p50)} ms  p99 ${f(r.baseline.p99)} ms`);
  console.log(`checkout  paid orders        ${f(r.checkout.perSecond).padStart(8)} /s   p50 ${f(r.checkout.p50)} ms  p99 ${f(r.checkout.p99)} ms   (${f(r.checkout.requestsPerSecond)} HTTP calls/s)`);
  console.log(`ratio     paid orders / baseline reads: ${r.ratio.toFixed(3)}; payments APPROVED in the database: ${r.approvedPayments}; target >= ${CHECKOUT_TARGET_PER_SECOND}/s: ${r.targetMet ? 'met' : 'NOT met'}`);
  for (const e of [...r.baseline.errors, ...r.checkout.errors]) console.log(`error: ${e}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  printCheckoutBench(await runCheckoutBench({ connections: arg('connections', 16), seconds: arg('seconds', 10) }));
}
