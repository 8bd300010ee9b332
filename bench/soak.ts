/**
 * Soak (`npm run soak`): one real server process (the CLI `start`) under mixed traffic from 127.0.0.1
 * for SOAK_SECONDS (default 600): browse, cart, checkout with payment, member administration and data
 * items. Every SAMPLE_SECONDS it samples the server's resident memory (/proc/<pid>/status) and the
 * latency of the answers of that window. Passes when no answer was an error, RSS grew less than
 * MAX_RSS_GROWTH after the warm-up, and p99 stayed steady (the last third's p99 within
 * MAX_P99_RATIO of the first third's, after warm-up). Figures are same-run ratios; docs/reliability.md
 * keeps a run's numbers. DATABASE_URL runs it on PostgreSQL (a schema of its own).
 */
import fs from 'node:fs';
import { freshDatabase, startServerProcess, stopServerProcess } from '../packages/server/test/child-server.js';
import { call, type ApiResponse, type CallOptions } from '../packages/server/test/harness.js';
import { DEMO_CLIENT_ID } from '../packages/server/src/cli/demo-store.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
/** Samples before this are warm-up (JIT, caches, pools filling). */
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 60);
/** Concurrent virtual users. */
const USERS = Number(process.env.SOAK_USERS ?? 8);
const MAX_RSS_GROWTH = 0.2;
const MAX_P99_RATIO = 1.5;
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
/** Stock of the soak's products: more than any run sells. */
const STOCK = 10_000_000;
const PRODUCTS = 20;

interface Sample { second: number; rssMb: number; requests: number; errors: number; p50: number; p99: number }

const db = freshDatabase('vitrine-soak-');
const proc = await startServerProcess({ ...db.env, LOG_LEVEL: 'error' }, 'soak server');
const url = proc.url;
const { apiKey, siteId } = await db.ownerKey('soak');
const owner: Pick<CallOptions, 'auth' | 'siteId'> = { auth: apiKey, siteId };

let windowLatencies: number[] = [];
let windowErrors = 0;
let windowRequests = 0;
const errorExamples: string[] = [];

/** One timed request; anything but a 200 counts as an error answer. */
async function req(path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const started = performance.now();
  let res: ApiResponse;
  try {
    res = await call(url, path, options);
  } catch (err) {
    windowErrors++;
    if (errorExamples.length < 10) errorExamples.push(`${path}: ${String(err)}`);
    throw err;
  }
  windowLatencies.push(performance.now() - started);
  windowRequests++;
  if (res.status !== 200) {
    windowErrors++;
    if (errorExamples.length < 10) errorExamples.push(`${options.method ?? 'POST/GET'} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    throw new Error(`${path} ${res.status}`);
  }
  return res;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};

// Setup: products with ample stock, a data collection.
const productIds: string[] = [];
for (let i = 0; i < PRODUCTS; i++) {
  const res = await call(url, '/stores/v1/products', { ...owner, body: { product: { name: `Soak ${i}`, priceData: { price: 3 + i }, stock: { trackInventory: true, quantity: STOCK } } } });
  productIds.push(res.body.product.id);
}
await call(url, '/wix-data/v2/collections', { ...owner, body: { collection: { id: 'soak', displayName: 'soak', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } } });

let stop = false;
let counter = 0;
/** Renews a visitor's access token this long before it expires, as the SDK does. */
const RENEW_BEFORE_MS = 60_000;

interface Session { auth: string; refreshToken: string; expiresAt: number }

async function tokens(body: Record<string, unknown>): Promise<Session> {
  const res = await req('/oauth2/token', { body: { clientId: DEMO_CLIENT_ID, ...body } });
  return { auth: res.body.access_token as string, refreshToken: res.body.refresh_token as string, expiresAt: Date.now() + Number(res.body.expires_in) * 1000 };
}

async function user(u: number): Promise<void> {
  let session = await tokens({ grantType: 'anonymous' });
  // Each user walks the scenarios in order (the checkout needs the cart step before it).
  for (let step = 0; !stop; step++) {
    // A soak outlives an access token: renew it with the refresh token (same visitor, same cart).
    if (Date.now() > session.expiresAt - RENEW_BEFORE_MS) session = await tokens({ grantType: 'refresh_token', refreshToken: session.refreshToken });
    const auth = { auth: session.auth };
    const n = counter++;
    const productId = productIds[n % productIds.length]!;
    try {
      switch (step % 5) {
        case 0: // browse
          await req('/stores-reader/v1/products/query-platformized', { ...auth, body: { query: { paging: { limit: 20 } } } });
          await req(`/stores-reader/v1/products/${productId}`, auth);
          break;
        case 1: // cart
          await req('/ecom/v1/carts/current/add-to-cart', { ...auth, body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productId, appId: STORES_APP_ID } }] } });
          await req('/ecom/v1/carts/current', auth);
          break;
        case 2: { // checkout and pay (the cart empties)
          const co = await req('/ecom/v1/carts/current/create-checkout', { ...auth, body: { channelType: 'WEB', email: `soak${u}@example.com` } });
          const checkoutId = co.body.checkoutId as string;
          await req(`/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, { ...auth, body: { id: checkoutId, paymentToken: JSON.stringify(CARD) } });
          break;
        }
        case 3: { // members (owner administration)
          const m = await req('/members/v1/members', { ...owner, body: { member: { loginEmail: `soak-${u}-${n}@example.com` } } });
          await req(`/members/v1/members/${m.body.member.id}`, owner);
          break;
        }
        default: // data
          await req('/wix-data/v2/items', { ...auth, body: { dataCollectionId: 'soak', dataItem: { data: { n, user: u, note: 'soak item' } } } });
          await req('/wix-data/v2/items/query', { ...auth, body: { dataCollectionId: 'soak', query: { filter: { user: u }, paging: { limit: 10 } } } });
      }
    } catch {
      // counted in req(); the user goes on with the next scenario
    }
  }
}

const samples: Sample[] = [];
const started = performance.now();
const users = Array.from({ length: USERS }, (_, u) => user(u));
for (let second = SAMPLE_SECONDS; second <= SECONDS; second += SAMPLE_SECONDS) {
  await new Promise((r) => setTimeout(r, started + second * 1000 - performance.now()));
  const sample: Sample = { second, rssMb: Math.round(rssMb(proc.child.pid!) * 10) / 10, requests: windowRequests, errors: windowErrors, p50: Math.round(pct(windowLatencies, 50) * 10) / 10, p99: Math.round(pct(windowLatencies, 99) * 10) / 10 };
  samples.push(sample);
  console.log(JSON.stringify(sample));
  windowLatencies = [];
  windowErrors = 0;
  windowRequests = 0;
}
stop = true;
await Promise.all(users);
await stopServerProcess(proc, 'SIGTERM');
await db.drop();

const afterWarmup = samples.filter((s) => s.second > WARMUP_SECONDS);
const third = Math.max(1, Math.floor(afterWarmup.length / 3));
const firstThird = afterWarmup.slice(0, third);
const lastThird = afterWarmup.slice(-third);
const median = (xs: number[]) => pct(xs, 50);
const rssGrowth = afterWarmup.length ? afterWarmup.at(-1)!.rssMb / afterWarmup[0]!.rssMb - 1 : 0;
const p99Ratio = median(lastThird.map((s) => s.p99)) / Math.max(0.1, median(firstThird.map((s) => s.p99)));
const totals = { requests: samples.reduce((a, s) => a + s.requests, 0), errors: samples.reduce((a, s) => a + s.errors, 0) };
const summary = {
  database: process.env.DATABASE_URL ? 'postgres' : 'sqlite', seconds: SECONDS, users: USERS, ...totals,
  requestsPerSecond: Math.round(totals.requests / SECONDS),
  rssAfterWarmupMb: afterWarmup[0]?.rssMb, rssEndMb: afterWarmup.at(-1)?.rssMb, rssGrowth: Math.round(rssGrowth * 1000) / 1000,
  p99FirstThirdMs: median(firstThird.map((s) => s.p99)), p99LastThirdMs: median(lastThird.map((s) => s.p99)), p99Ratio: Math.round(p99Ratio * 100) / 100,
  errorExamples,
};
console.log(JSON.stringify(summary, null, 2));
const passed = totals.errors === 0 && rssGrowth < MAX_RSS_GROWTH && p99Ratio <= MAX_P99_RATIO;
console.log(passed ? 'soak passed' : 'soak FAILED');
process.exit(passed ? 0 : 1);
