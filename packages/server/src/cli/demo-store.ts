import type { Logger } from 'pino';
import type { AppDeps, RequestContext } from '../http/context.js';
import type { Db } from '../storage/database.js';
import { inTransaction } from '../storage/transaction.js';
import { isUniqueViolation } from '../storage/errors.js';
import { createSite, getSite, type Site } from '../domains/sites/service.js';
import { createOAuthClient } from '../domains/identity/service.js';
import { buildProductV1, slugify, type NewProductInput } from '../domains/catalog/build.js';
import { createCollectionRecord, createProductRecord, saveMediaFile } from '../domains/catalog/service.js';
import type { ProductOption } from '../domains/catalog/model.js';
import { placeholderImage } from './placeholder-image.js';
import { seedDemoPricing } from '../domains/cart/rules/demo.js';

export const DEMO_SITE_SLUG = 'demo';
export const DEMO_CLIENT_ID = 'demo';

const sizes = (...values: string[]): ProductOption => ({
  optionType: 'drop_down', name: 'Size', choices: values.map((value) => ({ value, description: value, inStock: true, visible: true })),
});
const colors = (...pairs: [string, string][]): ProductOption => ({
  optionType: 'color', name: 'Color', choices: pairs.map(([description, value]) => ({ value, description, inStock: true, visible: true })),
});
const grind = (): ProductOption => ({
  optionType: 'drop_down', name: 'Grind', choices: ['Whole bean', 'Espresso', 'Filter'].map((v) => ({ value: v, description: v, inStock: true, visible: true })),
});

type DemoProduct = Omit<NewProductInput, 'collectionIds' | 'media'> & { collections: string[] };

const COLLECTIONS = [
  { slug: 'coffee', name: 'Coffee', description: 'Single origins and blends, roasted weekly.' },
  { slug: 'tea', name: 'Tea', description: 'Loose-leaf teas from small gardens.' },
  { slug: 'brewing-gear', name: 'Brewing gear', description: 'Everything for the perfect cup.' },
  { slug: 'apparel', name: 'Apparel', description: 'Wear your coffee.' },
  { slug: 'gifts', name: 'Gifts', description: 'Boxes and cards for people you like.' },
];

const PRODUCTS: DemoProduct[] = [
  { name: 'Ethiopia Yirgacheffe', price: 18, cost: 7, sku: 'COF-ETH', weight: 0.25, collections: ['coffee'], productOptions: [grind()], brand: 'Vitrine Roasters', ribbon: 'Bestseller', description: 'Floral, bergamot and lemon; a washed coffee from Gedeo.' },
  { name: 'Colombia Huila', price: 16, cost: 6, sku: 'COF-COL', weight: 0.25, collections: ['coffee'], productOptions: [grind()], brand: 'Vitrine Roasters', description: 'Red apple, caramel and cocoa.' },
  { name: 'Kenya Nyeri AA', price: 21, cost: 9, sku: 'COF-KEN', weight: 0.25, collections: ['coffee'], productOptions: [grind()], brand: 'Vitrine Roasters', discount: { type: 'PERCENT', value: 10 }, ribbon: 'Sale', description: 'Blackcurrant and tomato-vine acidity.' },
  { name: 'Guatemala Antigua', price: 17, cost: 6.5, sku: 'COF-GUA', weight: 0.25, collections: ['coffee'], brand: 'Vitrine Roasters', description: 'Milk chocolate, hazelnut, orange.' },
  { name: 'House Espresso Blend', price: 15, cost: 5, sku: 'COF-ESP', weight: 1, collections: ['coffee', 'gifts'], productOptions: [sizes('250 g', '1 kg')], variantOverrides: [{ choices: { Size: '1 kg' }, priceDelta: 30 }], brand: 'Vitrine Roasters', description: 'Dense and sweet for milk drinks.' },
  { name: 'Decaf Brazil', price: 14, cost: 5, sku: 'COF-DEC', weight: 0.25, collections: ['coffee'], brand: 'Vitrine Roasters', inStock: false, description: 'Swiss-water decaf with nutty sweetness.' },
  { name: 'Sencha Kagoshima', price: 12, cost: 4, sku: 'TEA-SEN', weight: 0.1, collections: ['tea'], brand: 'Leaf & Co', description: 'Grassy and sweet steamed green tea.' },
  { name: 'Darjeeling First Flush', price: 19, cost: 8, sku: 'TEA-DAR', weight: 0.1, collections: ['tea'], brand: 'Leaf & Co', discount: { type: 'AMOUNT', value: 3 }, ribbon: 'Sale', description: 'Muscatel and spring flowers.' },
  { name: 'Earl Grey Supreme', price: 10, cost: 3, sku: 'TEA-EGS', weight: 0.1, collections: ['tea', 'gifts'], brand: 'Leaf & Co', description: 'Black tea with bergamot and cornflower.' },
  { name: 'Jasmine Pearls', price: 16, cost: 6, sku: 'TEA-JAS', weight: 0.1, collections: ['tea'], brand: 'Leaf & Co', description: 'Hand-rolled green tea scented with jasmine.' },
  { name: 'Rooibos Vanilla', price: 9, cost: 3, sku: 'TEA-ROO', weight: 0.1, collections: ['tea'], brand: 'Leaf & Co', description: 'Caffeine-free with a soft vanilla finish.' },
  { name: 'Matcha Ceremonial', price: 28, cost: 12, sku: 'TEA-MAT', weight: 0.03, collections: ['tea'], brand: 'Leaf & Co', ribbon: 'New', description: 'Stone-ground tencha from Uji.' },
  { name: 'Pour-Over Dripper', price: 24, cost: 9, sku: 'GEAR-DRP', weight: 0.4, collections: ['brewing-gear'], productOptions: [colors(['White', '#ffffff'], ['Black', '#000000'], ['Clay', '#b5651d'])], brand: 'Brewline', description: 'Ceramic cone dripper, fits most mugs.' },
  { name: 'Gooseneck Kettle', price: 69, cost: 30, sku: 'GEAR-KTL', weight: 1.1, collections: ['brewing-gear'], productOptions: [colors(['Steel', '#c0c0c0'], ['Matte black', '#222222'])], brand: 'Brewline', discount: { type: 'PERCENT', value: 15 }, ribbon: 'Sale', description: 'Precise pour, 1 litre.' },
  { name: 'Hand Grinder', price: 89, cost: 40, sku: 'GEAR-GRN', weight: 0.7, collections: ['brewing-gear', 'gifts'], brand: 'Brewline', trackInventory: true, quantity: 12, description: 'Conical steel burrs, 40 clicks.' },
  { name: 'French Press', price: 35, cost: 14, sku: 'GEAR-FRP', weight: 0.9, collections: ['brewing-gear'], productOptions: [sizes('350 ml', '1 l')], variantOverrides: [{ choices: { Size: '1 l' }, priceDelta: 10 }], brand: 'Brewline', description: 'Borosilicate glass, steel mesh.' },
  { name: 'Paper Filters (100)', price: 6, cost: 1.5, sku: 'GEAR-FIL', weight: 0.1, collections: ['brewing-gear'], brand: 'Brewline', description: 'Unbleached, for cone drippers.' },
  { name: 'Digital Scale', price: 45, cost: 18, sku: 'GEAR-SCL', weight: 0.5, collections: ['brewing-gear'], brand: 'Brewline', trackInventory: true, quantity: 0, description: '0.1 g precision with a timer.' },
  { name: 'Barista T-Shirt', price: 25, cost: 8, sku: 'APP-TEE', weight: 0.2, collections: ['apparel'], productOptions: [sizes('S', 'M', 'L', 'XL'), colors(['Black', '#000000'], ['Sand', '#d8c8a8'])], brand: 'Vitrine', description: 'Organic cotton, printed by hand.' },
  { name: 'Roaster Hoodie', price: 55, cost: 22, sku: 'APP-HOD', weight: 0.6, collections: ['apparel'], productOptions: [sizes('S', 'M', 'L', 'XL')], variantOverrides: [{ choices: { Size: 'XL' }, inStock: false }], brand: 'Vitrine', description: 'Heavyweight fleece.' },
  { name: 'Canvas Apron', price: 38, cost: 14, sku: 'APP-APR', weight: 0.4, collections: ['apparel', 'gifts'], productOptions: [colors(['Denim', '#3b5b89'], ['Olive', '#6b7a3a'])], brand: 'Vitrine', description: 'Leather straps, two pockets.' },
  { name: 'Knit Beanie', price: 20, cost: 6, sku: 'APP-BEA', weight: 0.1, collections: ['apparel'], brand: 'Vitrine', discount: { type: 'AMOUNT', value: 5 }, ribbon: 'Sale', description: 'Merino wool, one size.' },
  { name: 'Tasting Gift Box', price: 48, cost: 20, sku: 'GFT-BOX', weight: 1, collections: ['gifts', 'coffee'], brand: 'Vitrine Roasters', ribbon: 'New', description: 'Four coffees, 100 g each, with tasting notes.' },
  { name: 'Gift Card', price: 50, sku: 'GFT-CRD', collections: ['gifts'], productType: 'digital', productOptions: [sizes('$25', '$50', '$100')], variantOverrides: [{ choices: { Size: '$25' }, priceDelta: -25 }, { choices: { Size: '$100' }, priceDelta: 50 }], description: 'Delivered by e-mail, never expires.' },
  { name: 'Ceramic Mug', price: 18, cost: 6, sku: 'GIFT-MUG', weight: 0.35, collections: ['gifts', 'brewing-gear'], productOptions: [colors(['Cream', '#f3ead8'], ['Slate', '#5a6270'])], brand: 'Vitrine', description: '300 ml, dishwasher safe.' },
  { name: 'Cold Brew Kit', price: 32, cost: 12, sku: 'GEAR-CBK', weight: 1.2, collections: ['brewing-gear', 'coffee'], brand: 'Brewline', visible: true, description: 'Jar, filter bag and a coarse-ground blend.' },
];

/**
 * Creates the demo site, its OAuth client `demo`, the demo catalog and pricing, unless the site exists.
 * All of it is one transaction, so an interrupted seed leaves nothing behind and the next run (or the
 * next `vitrine start`) simply seeds again; two processes starting at once create it once.
 */
export async function ensureDemoStore(deps: AppDeps, log: Logger, onProgress: (p: { done: number; total: number }) => void = () => {}): Promise<{ site: Site; created: boolean }> {
  const db: Db = deps.storage.db;
  const existing = await getSite(db, DEMO_SITE_SLUG);
  if (existing) return { site: existing, created: false };
  const total = COLLECTIONS.length + PRODUCTS.length + 1;
  let site: Site;
  try {
    site = await inTransaction(db, async (trx) => {
      const made = await createSite(trx, { slug: DEMO_SITE_SLUG, name: 'Vitrine Demo Store', status: 'DEMO', currency: 'USD' });
      await createOAuthClient(trx, { id: DEMO_CLIENT_ID, siteId: made.id, name: 'Demo storefront', redirectUris: [], allowLocalhost: true });
      const ctx: RequestContext = {
        requestId: 'seed', deps, db: trx, dialect: deps.storage.dialect, caller: { kind: 'owner', apiKeyId: 'seed' },
        origin: '', ip: '127.0.0.1', log, site: made,
      };
      await seedCatalog(ctx, (done) => onProgress({ done, total }));
      await seedDemoPricing(ctx);
      onProgress({ done: total, total });
      return made;
    });
  } catch (error) {
    // Another process seeded first: use its site.
    const raced = isUniqueViolation(error) ? await getSite(db, DEMO_SITE_SLUG) : undefined;
    if (raced) return { site: raced, created: false };
    throw error;
  }
  log.info({ site: site.id, products: PRODUCTS.length, collections: COLLECTIONS.length }, 'demo store created');
  return { site, created: true };
}

async function seedCatalog(ctx: RequestContext, onStep: (done: number) => void): Promise<void> {
  const collectionIds = new Map<string, string>();
  let done = 0;
  for (const [i, c] of COLLECTIONS.entries()) {
    const image = await saveMediaFile(ctx, { fileName: `${c.slug}.svg`, contentType: 'image/svg+xml', width: 800, height: 800, bytes: placeholderImage(c.name, i * 70, i) });
    const collection = await createCollectionRecord(ctx, {
      id: crypto.randomUUID(), name: c.name, slug: c.slug, visible: true, description: c.description,
      media: { mainMedia: { id: image.id, mediaType: 'image', title: c.name, image: { url: image.path, width: 800, height: 800 } }, items: [] },
    });
    collectionIds.set(c.slug, collection.id);
    onStep(++done);
  }
  for (const [i, p] of PRODUCTS.entries()) {
    const image = await saveMediaFile(ctx, { fileName: `${slugify(p.name)}.svg`, contentType: 'image/svg+xml', width: 800, height: 800, bytes: placeholderImage(p.name, (i * 37) % 360, i) });
    const picture = { url: image.path, width: 800, height: 800 };
    const mainMedia = { id: image.id, title: p.name, mediaType: 'image' as const, image: picture, thumbnail: picture };
    const { collections, ...input } = p;
    // Creation dates a minute apart keep the default newest-first order stable.
    const product = buildProductV1({ ...input, collectionIds: collections.map((slug) => collectionIds.get(slug)!), media: { mainMedia, items: [mainMedia] } }, ctx.site.currency, new Date(Date.now() - (PRODUCTS.length - i) * 60_000));
    await createProductRecord(ctx, product);
    onStep(++done);
  }
}
