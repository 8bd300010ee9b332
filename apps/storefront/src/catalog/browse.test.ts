import { describe, expect, it } from 'vitest';
import type { collections, products } from '@vitrine/sdk/stores';
import { browse, browseSearch, parseBrowse, toggle } from './browse';
import { choiceAvailable, choicesFromUrl, variantOf } from './variant';

const money = (price: number, discounted = price) => ({ currency: 'USD', price, discountedPrice: discounted, formatted: { price: `$${price}`, discountedPrice: `$${discounted}` } });
const shelf = (id: string, slug: string, name: string) => ({ _id: id, slug, name, visible: true }) satisfies collections.Collection;

const sizeChoice = (s: string | null): Record<string, string> => (s ? { Size: s } : {});

/** A product with only the fields the browser reads (a test fixture, built field by field). */
function product(p: { id: string; name: string; price: number; discounted?: number; brand?: string; collectionIds?: string[]; inStock?: boolean; sizes?: string[]; sku?: string; created: number }): products.Product {
  const options = p.sizes ? [{ optionType: 'drop_down' as const, name: 'Size', choices: p.sizes.map((s) => ({ value: s, description: s, inStock: true, visible: true })) }] : [];
  const variants = (p.sizes ?? [null]).map((s, i) => ({
    _id: `${p.id}-${i}`, choices: sizeChoice(s),
    variant: { priceData: money(p.price), convertedPriceData: money(p.price), visible: true },
    stock: { trackQuantity: false, inStock: s === 'XL' ? false : (p.inStock ?? true) },
  }));
  return {
    _id: p.id, name: p.name, slug: p.id, visible: true, productType: 'physical', description: '', sku: p.sku, brand: p.brand,
    stock: { trackInventory: false, inStock: p.inStock ?? true, inventoryStatus: 'IN_STOCK' },
    price: money(p.price, p.discounted), priceData: money(p.price, p.discounted), convertedPriceData: money(p.price, p.discounted),
    priceRange: { minValue: p.price, maxValue: p.price }, additionalInfoSections: [], ribbons: [], media: { items: [] }, customTextFields: [],
    manageVariants: Boolean(p.sizes), productOptions: options, productPageUrl: { base: '', path: '' }, numericId: '1', inventoryItemId: p.id,
    discount: { type: 'NONE', value: 0 }, collectionIds: p.collectionIds ?? [], variants,
    lastUpdated: new Date(p.created), _createdDate: new Date(p.created),
  };
}

const shelves = [shelf('c1', 'tea', 'Tea'), shelf('c2', 'gear', 'Gear')];
const scope = [
  product({ id: 'kettle', name: 'Kettle', price: 69, discounted: 58.65, brand: 'Brewline', collectionIds: ['c2'], created: 3 }),
  product({ id: 'grinder', name: 'Grinder', price: 89, brand: 'Brewline', collectionIds: ['c2'], inStock: false, created: 2 }),
  product({ id: 'sencha', name: 'Sencha', price: 12, brand: 'Leaf', collectionIds: ['c1'], sku: 'TEA-SEN', created: 1 }),
  product({ id: 'hoodie', name: 'Hoodie', price: 55, brand: 'Vitrine', sizes: ['M', 'XL'], created: 4 }),
];

describe('catalog browsing', () => {
  it('reads and writes the URL state (defaults left out, unknown values dropped)', () => {
    const state = parseBrowse(new URLSearchParams('q=tea&brand=Leaf&o.Size=M&price=0-20&price=bogus&inStock=1&sort=price-asc&page=2'));
    expect(state).toEqual({ q: 'tea', brands: ['Leaf'], options: { Size: ['M'] }, collections: [], prices: ['0-20'], inStock: true, sort: 'price-asc', page: 2 });
    expect(browseSearch(state)).toBe('?q=tea&brand=Leaf&o.Size=M&price=0-20&inStock=1&sort=price-asc&page=2');
    expect(browseSearch(toggle(state, { kind: 'brand' }, 'Leaf'))).toBe('?q=tea&o.Size=M&price=0-20&inStock=1&sort=price-asc');
    expect(browseSearch(parseBrowse(new URLSearchParams('sort=nope&page=-1')))).toBe('');
  });

  it('searches name, SKU and collection names; counts each facet over the other selections', () => {
    const none = parseBrowse(new URLSearchParams());
    expect(browse(scope, shelves, { ...none, q: 'tea-sen' }, { collectionFacet: true }).items.map((p) => p._id)).toEqual(['sencha']);
    expect(browse(scope, shelves, { ...none, q: 'gear' }, { collectionFacet: true }).items.map((p) => p._id)).toEqual(['kettle', 'grinder']);
    const r = browse(scope, shelves, { ...none, brands: ['Brewline'], inStock: true }, { collectionFacet: true });
    expect(r.items.map((p) => p._id)).toEqual(['kettle']);
    expect(r.facets.find((f) => f.title === 'Brand')!.values.map((v) => [v.value, v.count, v.selected])).toEqual([['Brewline', 1, true], ['Leaf', 1, false], ['Vitrine', 1, false]]);
    expect(r.facets.find((f) => f.title === 'Availability')!.values).toEqual([{ value: '1', label: 'In stock only', count: 1, selected: true }]);
  });

  it('sorts by the price the shopper pays and pages', () => {
    const none = parseBrowse(new URLSearchParams());
    expect(browse(scope, shelves, { ...none, sort: 'price-desc' }, { collectionFacet: false }).items.map((p) => p._id)).toEqual(['grinder', 'kettle', 'hoodie', 'sencha']);
    expect(browse(scope, shelves, { ...none, sort: 'newest', page: 9 }, { collectionFacet: false })).toMatchObject({ page: 1, pages: 1, total: 4 });
  });

  it('picks the variant of the URL choices and marks sold-out choices', () => {
    const hoodie = scope[3]!;
    const choices = choicesFromUrl(hoodie, new URLSearchParams('Size=XL&Color=Red'));
    expect(choices).toEqual({ Size: 'XL' });
    expect(variantOf(hoodie, choices)?._id).toBe('hoodie-1');
    expect(variantOf(hoodie, {})).toBeUndefined();
    expect(choiceAvailable(hoodie, {}, 'Size', 'XL')).toBe(false);
    expect(choiceAvailable(hoodie, {}, 'Size', 'M')).toBe(true);
  });
});
