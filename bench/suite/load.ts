/**
 * The load generator, always its own process (the servers under test never share its event loop).
 * Reads a job (JSON file named in argv[2]), prints one JSON line: the measured result.
 *
 * - mode `requests`: autocannon, `connections` keep-alive connections, each request the next of
 *   `requests` in turn (ids, tokens and bodies rotate).
 * - mode `checkout`: one buyer per connection (own visitor token), each looping add to cart ->
 *   create checkout -> create the order and charge the test card; a completed loop is one "request".
 *
 * It also reports its own CPU use over the measured window: a generator near one full core could be
 * the bottleneck, and the suite says so beside the figure.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { cpuSeconds, type LoadJob, type LoadResult, type PlannedRequest } from './common.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const TEST_CARD = JSON.stringify({ number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' });

/** The part of autocannon's API used here (the package ships no type declarations). */
interface RequestParams { method: string; path: string; headers: Record<string, string>; body?: string | undefined }
interface AutocannonResult {
  '2xx': number; non2xx: number; errors: number; timeouts: number; duration: number;
  latency: { p50: number; p99: number };
}
type Autocannon = (options: {
  url: string; connections: number; duration: number;
  requests: { setupRequest: (req: RequestParams) => RequestParams }[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadJob;

const cpuMicros = () => { const u = process.cpuUsage(); return u.user + u.system; };

/** Starts the window's clocks: wall time, this generator's CPU and the measured processes' CPU. */
function startWindow(): () => { wall: number; generatorCpu: number; targetCpuSeconds: number } {
  const pids = job.measuredPids ?? [];
  const cpu0 = cpuMicros();
  const target0 = cpuSeconds(pids);
  const t0 = performance.now();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    return { wall, generatorCpu: (cpuMicros() - cpu0) / 1e6 / wall, targetCpuSeconds: cpuSeconds(pids) - target0 };
  };
}

function quantile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}

async function autocannonRun(requests: PlannedRequest[], seconds: number): Promise<LoadResult> {
  let next = 0;
  const window = startWindow();
  const result = await autocannon({
    url: job.origin,
    connections: job.connections,
    duration: seconds,
    // One request template whose contents rotate: autocannon calls setupRequest before every send.
    requests: [{
      setupRequest: (req) => {
        const r = requests[next++ % requests.length]!;
        return { ...req, method: r.method, path: r.path, headers: r.headers, body: r.body };
      },
    }],
  });
  const { generatorCpu, targetCpuSeconds } = window();
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    completed: ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    generatorCpu,
    targetCpuSeconds,
  };
}

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${job.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) as Record<string, unknown> : {};
}

async function checkoutRun(seconds: number): Promise<LoadResult> {
  const tokens: string[] = [];
  for (let i = 0; i < job.connections; i++) {
    tokens.push((await send('POST', '/oauth2/token', { 'content-type': 'application/json' }, { clientId: job.clientId, grantType: 'anonymous' })).access_token as string);
  }
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const window = startWindow();
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(tokens.map(async (token, u) => {
    const auth = { authorization: token, 'content-type': 'application/json' };
    for (let i = u; performance.now() < deadline; i++) {
      const s = performance.now();
      try {
        await send('POST', '/ecom/v1/carts/current/add-to-cart', auth, { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: job.productIds![i % job.productIds!.length], appId: STORES_APP_ID } }] });
        const { checkoutId } = await send('POST', '/ecom/v1/carts/current/create-checkout', auth, { channelType: 'WEB', email: 'bench@example.com' }) as { checkoutId: string };
        const placed = await send('POST', `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, auth, { id: checkoutId, paymentToken: TEST_CARD });
        if ((JSON.parse(String(placed.paymentResponseToken)) as { status?: string }).status !== 'APPROVED') throw new Error(`payment not approved: ${JSON.stringify(placed).slice(0, 200)}`);
        latencies.push(performance.now() - s);
      } catch (error) {
        errors++;
        firstError ??= String(error);
        // A cart left behind by a failed step would fail every later loop the same way.
        await send('DELETE', '/ecom/v1/carts/current', auth).catch(() => undefined);
      }
    }
  }));
  const { wall, generatorCpu, targetCpuSeconds } = window();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / wall, completed: latencies.length, non2xx: 0, errors,
    p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), generatorCpu, targetCpuSeconds,
    ...(firstError ? { firstError } : {}),
  };
}

/** Length of each warm-up window after the first, in seconds. */
const SETTLE_WINDOW_SECONDS = 3;
/** Two windows in a row whose CPU per unit differs by less than this share count as settled. */
const SETTLED_WITHIN = 0.08;

const cpuPerUnit = (r: LoadResult) => (r.completed > 0 ? r.targetCpuSeconds / r.completed : Number.POSITIVE_INFINITY);

/**
 * Warms up for `warmupSeconds`, then in short windows until two windows in a row cost the measured
 * processes the same CPU per unit (within SETTLED_WITHIN) or `warmupMaxSeconds` have passed. V8 compiles
 * a path after enough calls, not after enough seconds: a scenario answering 1,000 requests/s (a cart
 * call) was still compiling after the 8 s that settle a product get at 4,000/s (docs/performance-log.md).
 */
async function warmUp(run: (seconds: number) => Promise<LoadResult>): Promise<{ seconds: number; settled?: boolean }> {
  if (job.warmupSeconds <= 0) return { seconds: 0 };
  let previous = await run(job.warmupSeconds);
  let seconds = job.warmupSeconds;
  const max = Math.max(job.warmupMaxSeconds ?? job.warmupSeconds, job.warmupSeconds);
  if (seconds + SETTLE_WINDOW_SECONDS > max) return { seconds }; // a fixed warm-up: nothing checked
  while (seconds + SETTLE_WINDOW_SECONDS <= max) {
    const next = await run(SETTLE_WINDOW_SECONDS);
    seconds += SETTLE_WINDOW_SECONDS;
    const [a, b] = [cpuPerUnit(previous), cpuPerUnit(next)];
    if (Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= SETTLED_WITHIN * Math.max(a, b)) return { seconds, settled: true };
    previous = next;
  }
  return { seconds, settled: false };
}

async function main(): Promise<void> {
  const run = (seconds: number) => (job.mode === 'checkout' ? checkoutRun(seconds) : autocannonRun(job.requests!, seconds));
  const warmup = await warmUp(run);
  process.stdout.write(`${JSON.stringify({ ...(await run(job.seconds)), warmup })}\n`);
}

await main();
