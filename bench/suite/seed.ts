/**
 * Seeds one benchmark data set straight through the services (no HTTP): the demo store, `size`
 * products in batches of SEED_BATCH (each batch one transaction), a data collection with `size`
 * items, up to MEMBERS_MAX members and an owner API key; the jobs these cause (welcome mails,
 * event fan-out) are run to the end before it returns. Reads the same environment as
 * `vitrine start` (DATA_DIR or DATABASE_URL + DATABASE_SCHEMA), so the compiled server started
 * afterwards on that environment serves exactly this data. Prints one JSON line: the fixture.
 *
 *   DATA_DIR=/tmp/x npx tsx bench/suite/seed.ts 10000
 */
import { loadConfig } from '../../packages/server/src/config.js';
import { createLogger, createServer } from '../../packages/server/src/server.js';
import { ensureDemoStore, DEMO_CLIENT_ID } from '../../packages/server/src/cli/demo-store.js';
import { buildProductWithStock } from '../../packages/server/src/domains/catalog/build.js';
import { seedProducts } from '../../packages/server/src/domains/catalog/service.js';
import { createApiKey } from '../../packages/server/src/domains/identity/service.js';
import { createCollection, createIndex } from '../../packages/server/src/domains/data/collections.js';
import { bulkWrite } from '../../packages/server/src/domains/data/bulk.js';
import { createMember } from '../../packages/server/src/domains/members/service.js';
import { localFanOutSettled } from '../../packages/server/src/domains/events/jobs.js';
import type { RequestContext } from '../../packages/server/src/http/context.js';
import { BENCH_COLLECTION, BRANDS, ITEM_KEYS, SEED_BATCH, MEMBERS_MAX, V3_BULK, V3_PRODUCTS_MAX, type Fixture } from './common.js';

const WORDS = ['Ethiopia', 'Kenya', 'Colombia', 'Brazil', 'Sumatra', 'Kettle', 'Grinder', 'Dripper', 'Mug', 'Filter', 'Tea', 'Matcha'];

function product(i: number) {
  return buildProductWithStock({
    name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`, slug: `bench-${i}`, price: (i % 500) + 0.99, cost: 1, sku: `B-${i}`,
    brand: BRANDS[i % BRANDS.length], description: `Bench product number ${i}, a ${WORDS[(i * 3) % WORDS.length]!.toLowerCase()} for every day`, weight: 0.5,
    visible: i % 20 !== 0,
    productOptions: i % 3 === 0 ? [{ optionType: 'drop_down', name: 'Size', choices: ['S', 'M', 'L'].map((v) => ({ value: v, description: v, inStock: true, visible: true })) }] : [],
    // Untracked stock: checkout and add-to-cart loops must not run out of stock mid-run.
    trackInventory: false,
  }, 'USD', new Date(Date.UTC(2026, 0, 1) + i * 1000));
}

/** A V3 product (the search-with-facets and V3 get scenarios read these). */
function productV3(i: number) {
  return {
    name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 5) % WORDS.length]} V3 ${i}`, productType: 'PHYSICAL', visible: true,
    brand: { name: BRANDS[i % BRANDS.length] },
    variantsInfo: { variants: [{ sku: `B3-${i}`, price: { actualPrice: { amount: String((i % 500) + 0.99) } } }] },
  };
}

async function main(size: number): Promise<void> {
  const defaults = loadConfig();
  const config = { ...defaults, port: 0, logLevel: 'silent' };
  const server = await createServer(config, createLogger('silent'));
  const t0 = performance.now();
  const { site } = await ensureDemoStore(server.deps, server.deps.log);
  const ctx: RequestContext = {
    requestId: 'bench-seed', deps: server.deps, db: server.deps.storage.db, dialect: server.deps.storage.dialect,
    caller: { kind: 'owner', apiKeyId: 'bench-seed' }, origin: '', ip: '127.0.0.1', log: server.deps.log, site,
  };
  for (let start = 0; start < size; start += SEED_BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(size, start + SEED_BATCH); i++) batch.push(product(i));
    await seedProducts(ctx, batch);
  }
  await createCollection(ctx, { collection: { id: BENCH_COLLECTION, fields: [{ key: 'k', type: 'NUMBER' }, { key: 'title', type: 'TEXT' }], permissions: { read: 'ANYONE' } } });
  await createIndex(ctx, { dataCollectionId: BENCH_COLLECTION, index: { name: 'by_k', fields: [{ path: 'k' }] } });
  for (let start = 0; start < size; start += SEED_BATCH) {
    const dataItems = [];
    for (let i = start; i < Math.min(size, start + SEED_BATCH); i++) dataItems.push({ data: { k: i % ITEM_KEYS, title: `Item ${i}` } });
    await bulkWrite(ctx, { dataCollectionId: BENCH_COLLECTION, dataItems }, 'insert');
  }
  for (let i = 0; i < Math.min(size, MEMBERS_MAX); i++) {
    await createMember(ctx, { loginEmail: `bench-member-${i}@example.com`, profile: { nickname: `Bench ${i}` } });
  }
  // The jobs the seed caused (welcome mails, event fan-out) run now, not during the measurements. The
  // local fan-out waits a moment before its pass: its mail jobs must be queued before waiting for jobs.
  await localFanOutSettled(server.deps);
  await server.jobs.whenIdle();
  const { apiKey } = await createApiKey(server.deps.storage.db, { siteId: site.id, name: 'bench' });
  // V3 products live in their own rows; they go through the bulk route in-process (no socket), 100 a call.
  for (let start = 0; start < Math.min(size, V3_PRODUCTS_MAX); start += V3_BULK) {
    const products = [];
    for (let i = start; i < Math.min(size, V3_PRODUCTS_MAX, start + V3_BULK); i++) products.push(productV3(i));
    const res = await server.app.fetch(new Request('http://seed/stores/v3/bulk/products/create', {
      method: 'POST', headers: { authorization: apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ products }),
    }));
    if (res.status !== 200) throw new Error(`V3 seed: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
  const fixture: Fixture = { siteId: site.id, clientId: DEMO_CLIENT_ID, apiKey, seedSeconds: (performance.now() - t0) / 1000 };
  await server.close();
  process.stdout.write(`${JSON.stringify(fixture)}\n`);
}

await main(Number(process.argv[2] ?? 1000));
