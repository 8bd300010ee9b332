/**
 * Load generator of bench/checkout.ts, run as its own process so the server's event loop is not
 * shared with the clients. Reads a JSON job from argv[2]; prints one JSON line of results.
 *
 * mode "checkout": each virtual buyer (own visitor token) loops: add to cart -> create checkout ->
 * create the order and charge the test card (captured; the order removes the cart). mode "baseline": the same buyers read one product (GET) in a loop.
 */
interface Job {
  mode: 'checkout' | 'baseline';
  url: string;
  apiKey: string;
  siteId: string;
  clientId: string;
  productIds: string[];
  connections: number;
  durationMs: number;
}

const job = JSON.parse(process.argv[2]!) as Job;
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };

let requests = 0;
async function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${job.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  requests++;
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) as Record<string, unknown> : {};
}

async function visitorToken(): Promise<string> {
  const res = await send('POST', '/oauth2/token', { 'content-type': 'application/json' }, { clientId: job.clientId, grantType: 'anonymous' });
  return res.access_token as string;
}

async function checkoutOnce(auth: Record<string, string>, productId: string): Promise<void> {
  await send('POST', '/ecom/v1/carts/current/add-to-cart', auth, { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productId, appId: STORES_APP_ID } }] });
  const co = await send('POST', '/ecom/v1/carts/current/create-checkout', auth, { channelType: 'WEB', email: 'bench@example.com' });
  const checkoutId = co.checkoutId as string;
  const placed = await send('POST', `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, auth, { id: checkoutId, paymentToken: JSON.stringify(CARD) });
  const charge = JSON.parse(placed.paymentResponseToken as string) as { status: string };
  if (charge.status !== 'APPROVED') throw new Error(`payment ${JSON.stringify(placed)}`);
  // The order removed the cart: the next add starts a new one.
}

async function main() {
  const latencies: number[] = [];
  const errors: string[] = [];
  const tokens = await Promise.all(Array.from({ length: job.connections }, () => visitorToken()));
  requests = 0;
  const start = performance.now();
  const deadline = start + job.durationMs;
  await Promise.all(tokens.map(async (token, u) => {
    const auth = { authorization: token, 'content-type': 'application/json' };
    let i = u;
    while (performance.now() < deadline) {
      const productId = job.productIds[i++ % job.productIds.length]!;
      const t0 = performance.now();
      try {
        if (job.mode === 'checkout') await checkoutOnce(auth, productId);
        else await send('GET', `/stores-reader/v1/products/${productId}`, auth);
        latencies.push(performance.now() - t0);
      } catch (error) {
        if (errors.length < 5) errors.push(String(error));
      }
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  console.log(JSON.stringify({ completed: latencies.length, perSecond: latencies.length / seconds, requestsPerSecond: requests / seconds, p50: pct(50), p99: pct(99), errors }));
}

await main();

export {};
