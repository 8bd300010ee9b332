/**
 * Load process of bench/cart.ts: runs autocannon against one endpoint and prints its figures as JSON
 * (the last line of stdout). Requests rotate over the given visitor tokens, so each connection's
 * calls spread over several carts. Input: one JSON argument (see `Job`).
 */
import { createRequire } from 'node:module';

/** The part of autocannon's API used here (the package ships no type declarations). */
interface AutocannonResult { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Job { url: string; method: 'GET' | 'POST'; path: string; body?: unknown; tokens: string[]; connections: number; seconds: number }

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
let next = 0;
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  requests: [{
    method: job.method,
    path: job.path,
    setupRequest: (req: Record<string, unknown>) => ({
      ...req,
      headers: { authorization: job.tokens[(next++) % job.tokens.length]!, 'content-type': 'application/json' },
      ...(job.body !== undefined ? { body: JSON.stringify(job.body) } : {}),
    }),
  }],
});
console.log(JSON.stringify({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, total: result.requests.total }));
