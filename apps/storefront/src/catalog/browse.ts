/**
 * The catalog browser's rules as pure functions over one "scope" of products (a collection, or the
 * whole store): search, facets with counts, sort, paging. The same code runs on the server (first
 * render) and in the browser (after a click), so both show exactly the same page for one URL.
 *
 * The scope is every product of the collection (search: of the store), read in pages of
 * SCOPE_LIMIT (the server's page maximum) up to SCOPE_MAX (queries.ts): facets over option choices and collection
 * names need every product of the scope, which the V1 query API cannot filter or count by. Paging
 * through is chosen over the V3 search's aggregations because search words must also match collection
 * names and variant SKUs, which those aggregations cannot see; SCOPE_MAX keeps one page's read and
 * its server-rendered state bounded.
 */
import type { collections, products } from '@vitrine/sdk/stores';

type Product = products.Product;
type Collection = collections.Collection;

/** Products per catalog page. */
export const PAGE_SIZE = 12;
/** Longest search text kept (the rest is cut). */
export const SEARCH_MAX = 100;

export const SORTS = ['featured', 'newest', 'price-asc', 'price-desc', 'name'] as const;
export type Sort = (typeof SORTS)[number];
export const SORT_LABELS: Record<Sort, string> = {
  featured: 'Featured', newest: 'Newest', 'price-asc': 'Price: low to high', 'price-desc': 'Price: high to low', name: 'Name',
};

/** Price buckets of the price facet (what the shopper pays, in the store currency). */
export const PRICE_BUCKETS = [
  { key: '0-20', label: 'Under 20', min: 0, max: 20 },
  { key: '20-50', label: '20 to 50', min: 20, max: 50 },
  { key: '50-100', label: '50 to 100', min: 50, max: 100 },
  { key: '100-', label: '100 and over', min: 100, max: Infinity },
] as const;

/** What a catalog URL asks for. */
export interface BrowseState {
  q: string;
  brands: string[];
  /** Option name -> chosen choice descriptions. */
  options: Record<string, string[]>;
  /** Collection slugs (search page facet). */
  collections: string[];
  prices: string[];
  inStock: boolean;
  sort: Sort;
  /** 1-based. */
  page: number;
}

const OPTION_PREFIX = 'o.';

/** Reads the state from the URL's query (unknown values are dropped, bounds applied). */
export function parseBrowse(params: URLSearchParams): BrowseState {
  const options: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (key.startsWith(OPTION_PREFIX) && value) (options[key.slice(OPTION_PREFIX.length)] ??= []).push(value);
  }
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, SEARCH_MAX),
    brands: params.getAll('brand').filter(Boolean),
    options,
    collections: params.getAll('collection').filter(Boolean),
    prices: params.getAll('price').filter((p) => PRICE_BUCKETS.some((b) => b.key === p)),
    inStock: params.get('inStock') === '1',
    sort: SORTS.find((s) => s === sort) ?? 'featured',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The URL query of a state (defaults left out, so URLs stay short and canonical). */
export function browseSearch(state: BrowseState): string {
  const p = new URLSearchParams();
  if (state.q) p.set('q', state.q);
  for (const c of state.collections) p.append('collection', c);
  for (const b of state.brands) p.append('brand', b);
  for (const [name, values] of Object.entries(state.options)) for (const v of values) p.append(OPTION_PREFIX + name, v);
  for (const pr of state.prices) p.append('price', pr);
  if (state.inStock) p.set('inStock', '1');
  if (state.sort !== 'featured') p.set('sort', state.sort);
  if (state.page > 1) p.set('page', String(state.page));
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** Toggles one facet value; any facet change goes back to page 1. */
export function toggle(state: BrowseState, facet: FacetKey, value: string): BrowseState {
  const flip = (list: string[]) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const next = { ...state, page: 1 };
  if (facet.kind === 'brand') return { ...next, brands: flip(state.brands) };
  if (facet.kind === 'collection') return { ...next, collections: flip(state.collections) };
  if (facet.kind === 'price') return { ...next, prices: flip(state.prices) };
  if (facet.kind === 'inStock') return { ...next, inStock: !state.inStock };
  const current = state.options[facet.name] ?? [];
  const options = { ...state.options, [facet.name]: flip(current) };
  if (options[facet.name]!.length === 0) delete options[facet.name];
  return { ...next, options };
}

export type FacetKey = { kind: 'brand' } | { kind: 'collection' } | { kind: 'price' } | { kind: 'inStock' } | { kind: 'option'; name: string };

export interface FacetValue { value: string; label: string; count: number; selected: boolean }
export interface Facet { key: FacetKey; title: string; values: FacetValue[] }

/** The price the shopper pays (the discounted price). */
export const shopperPrice = (p: Product) => p.priceData.discountedPrice;

/** Text a search term may match: name, description, SKUs (product and variants), brand, collection names. */
function haystack(p: Product, collectionNames: Map<string, string>): string {
  return [
    p.name, p.description, p.sku ?? '', p.brand ?? '',
    ...p.variants.map((v) => v.variant.sku ?? ''),
    ...p.collectionIds.map((id) => collectionNames.get(id) ?? ''),
  ].join(' \n ').toLowerCase();
}

/** Every word of the search must occur in the product's text. */
export function matchesSearch(p: Product, q: string, collectionNames: Map<string, string>): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = haystack(p, collectionNames);
  return words.every((w) => text.includes(w));
}

const optionValues = (p: Product, name: string) => p.productOptions.find((o) => o.name === name)?.choices.filter((c) => c.visible !== false).map((c) => c.description) ?? [];

type Predicate = (p: Product) => boolean;

/** One predicate per selected facet group; a group matches when the product has any of its values. */
function facetPredicates(state: BrowseState, slugToId: Map<string, string>): { key: string; test: Predicate }[] {
  const list: { key: string; test: Predicate }[] = [];
  if (state.brands.length) list.push({ key: 'brand', test: (p) => state.brands.includes(p.brand ?? '') });
  if (state.collections.length) {
    const ids = state.collections.map((s) => slugToId.get(s)).filter((id): id is string => Boolean(id));
    list.push({ key: 'collection', test: (p) => p.collectionIds.some((id) => ids.includes(id)) });
  }
  if (state.prices.length) {
    const buckets = PRICE_BUCKETS.filter((b) => state.prices.includes(b.key));
    list.push({ key: 'price', test: (p) => buckets.some((b) => shopperPrice(p) >= b.min && shopperPrice(p) < b.max) });
  }
  if (state.inStock) list.push({ key: 'inStock', test: (p) => p.stock.inStock });
  for (const [name, values] of Object.entries(state.options)) {
    list.push({ key: `option:${name}`, test: (p) => optionValues(p, name).some((v) => values.includes(v)) });
  }
  return list;
}

const facetId = (key: FacetKey) => (key.kind === 'option' ? `option:${key.name}` : key.kind);

export interface BrowseResult {
  items: Product[];
  total: number;
  pages: number;
  page: number;
  facets: Facet[];
}

/**
 * Applies search, facets, sort and paging to the scope. Each facet's counts are taken over the
 * products that match the search and every OTHER selected facet (picking a brand still shows how
 * many products the other brands have).
 */
export function browse(scope: readonly Product[], allCollections: readonly Collection[], state: BrowseState, opts: { collectionFacet: boolean }): BrowseResult {
  const names = new Map(allCollections.map((c) => [c._id, c.name]));
  const slugToId = new Map(allCollections.map((c) => [c.slug, c._id]));
  const searched = scope.filter((p) => matchesSearch(p, state.q, names));
  const predicates = facetPredicates(state, slugToId);
  const except = (id: string) => searched.filter((p) => predicates.every((pr) => pr.key === id || pr.test(p)));

  const facets: Facet[] = [];
  const count = (key: FacetKey, title: string, valuesOf: (p: Product) => { value: string; label: string }[], selected: (v: string) => boolean, order?: string[]) => {
    const base = except(facetId(key));
    const counts = new Map<string, { label: string; count: number }>();
    for (const p of base) {
      for (const v of new Map(valuesOf(p).map((x) => [x.value, x])).values()) {
        const entry = counts.get(v.value) ?? { label: v.label, count: 0 };
        entry.count += 1;
        counts.set(v.value, entry);
      }
    }
    const values = [...counts.entries()].map(([value, e]) => ({ value, label: e.label, count: e.count, selected: selected(value) }));
    if (order) values.sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value));
    else values.sort((a, b) => a.label.localeCompare(b.label));
    if (values.length > 0) facets.push({ key, title, values });
  };

  if (opts.collectionFacet) {
    const visible = allCollections.filter((c) => c.slug !== 'all-products');
    count({ kind: 'collection' }, 'Collection', (p) => visible.filter((c) => p.collectionIds.includes(c._id)).map((c) => ({ value: c.slug, label: c.name })), (v) => state.collections.includes(v));
  }
  count({ kind: 'brand' }, 'Brand', (p) => (p.brand ? [{ value: p.brand, label: p.brand }] : []), (v) => state.brands.includes(v));
  const optionNames = [...new Set(searched.flatMap((p) => p.productOptions.map((o) => o.name)))].sort();
  for (const name of optionNames) {
    const orderOf = [...new Set(searched.flatMap((p) => optionValues(p, name)))];
    count({ kind: 'option', name }, name, (p) => optionValues(p, name).map((v) => ({ value: v, label: v })), (v) => (state.options[name] ?? []).includes(v), orderOf);
  }
  count({ kind: 'price' }, 'Price', (p) => PRICE_BUCKETS.filter((b) => shopperPrice(p) >= b.min && shopperPrice(p) < b.max).map((b) => ({ value: b.key, label: b.label })), (v) => state.prices.includes(v), PRICE_BUCKETS.map((b) => b.key));
  count({ kind: 'inStock' }, 'Availability', (p) => (p.stock.inStock ? [{ value: '1', label: 'In stock only' }] : []), () => state.inStock);

  const matching = searched.filter((p) => predicates.every((pr) => pr.test(p)));
  const sorted = sortProducts(matching, state.sort);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(state.page, pages);
  return { items: sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total: sorted.length, pages, page, facets };
}

/** Sorts a copy; `featured` keeps the catalog's order (newest first); ties keep it too. */
export function sortProducts(list: readonly Product[], sort: Sort): Product[] {
  const copy = [...list];
  const byDate = (a: Product, b: Product) => (b._createdDate?.getTime() ?? 0) - (a._createdDate?.getTime() ?? 0);
  switch (sort) {
    case 'price-asc': return copy.sort((a, b) => shopperPrice(a) - shopperPrice(b));
    case 'price-desc': return copy.sort((a, b) => shopperPrice(b) - shopperPrice(a));
    case 'name': return copy.sort((a, b) => a.name.localeCompare(b.name));
    case 'newest': return copy.sort(byDate);
    default: return copy;
  }
}
