/** Catalog helpers and bounds of the dashboard (the calls themselves are @vitrine/react hooks). */
import type { products, productsV3 } from '@vitrine/sdk/stores';
import { centsText, toCents } from './money';

export type Product = products.Product;
export type Variant = products.Variant;
export type Collection = products.Collection;
export type DiscountType = Product['discount']['type'];

/** "Size: M, Color: Black" (choice descriptions from the product options). */
export function variantLabel(product: Pick<Product, 'productOptions'>, v: Pick<Variant, 'choices'>): string {
  return Object.entries(v.choices).map(([option, value]) => {
    const described = product.productOptions?.find((o) => o.name === option)?.choices.find((c) => c.value === value)?.description;
    return `${option}: ${described || value}`;
  }).join(', ');
}

/** The built-in collection every product is in (the platform's fixed id); it cannot be edited. */
export const ALL_PRODUCTS_ID = '00000000-000000-000000-000000000001';
/** Largest page of a V1 product or collection query (server bound PRODUCT_PAGE_MAX). */
export const CATALOG_PAGE_MAX = 100;

/** Sort orders the product list offers (fields the V1 query sorts on). */
export const PRODUCT_SORTS = {
  'name-asc': { label: 'Alphabetical', sort: [{ fieldName: 'name', order: 'ASC' }] },
  'price-asc': { label: 'Cheapest first', sort: [{ fieldName: 'price', order: 'ASC' }, { fieldName: 'name', order: 'ASC' }] },
  'price-desc': { label: 'Most expensive first', sort: [{ fieldName: 'price', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
  'updated-desc': { label: 'Recently updated', sort: [{ fieldName: 'lastUpdated', order: 'DESC' }, { fieldName: 'name', order: 'ASC' }] },
} as const satisfies Record<string, { label: string; sort: readonly { fieldName: products.ProductField; order: 'ASC' | 'DESC' }[] }>;
export type ProductSort = keyof typeof PRODUCT_SORTS;

/** Product list filters: the values of the Visibility and Stock selects ('' = any). */
export type VisibilityFilter = '' | 'visible' | 'hidden';
export type StockFilter = '' | 'in' | 'out';
export interface ProductFilter { search?: string; collectionId?: string; excludeCollectionId?: string; visibility?: VisibilityFilter; stock?: StockFilter; brand?: string }

/** The product list's filters on a `queryProducts()` builder (name search, in / not in a collection, visibility, stock, brand). */
export function filterProducts(f: ProductFilter): (q: products.ProductsQueryBuilder) => products.ProductsQueryBuilder {
  return (q) => {
    // `not` first, while the builder's own filter is still empty, so only the condition is negated.
    if (f.excludeCollectionId) q = q.not(q.hasSome('collectionIds', [f.excludeCollectionId]));
    if (f.collectionId) q = q.hasSome('collectionIds', [f.collectionId]);
    if (f.search?.trim()) q = q.contains('name', f.search.trim());
    if (f.visibility) q = q.eq('visible', f.visibility === 'visible');
    if (f.stock) q = q.eq('inStock', f.stock === 'in');
    if (f.brand?.trim()) q = q.eq('brand', f.brand.trim());
    return q;
  };
}

/** Text bounds of a V1 product as the server enforces them (the inputs stop the owner there). */
export const PRODUCT_TEXT_MAX = { name: 80, description: 16_000, sku: 40, brand: 50, ribbon: 30, infoTitle: 50, infoText: 16_000, seoTitle: 2000, seoDescription: 2000 } as const;
/** Largest stock quantity of a product or variant (the server's catalog and inventory schemas). */
export const STOCK_QUANTITY_MAX = 99_999_999;
/** Largest image file an upload takes (server CATALOG_LIMITS.mediaBytes, 5 MB). */
export const MEDIA_BYTES_MAX = 5 * 1024 * 1024;
/** Most options, additional info sections and images of a V1 product (server CATALOG_LIMITS). */
export const PRODUCT_LIMITS = { options: 6, infoSections: 50, media: 100 } as const;

export type SeoTag = NonNullable<Product['seoData']>['tags'][number];

/** The page title and meta description an owner sets, read from the product's SEO tags. */
export function seoFields(product: { seoData?: { tags: readonly SeoTag[] } | undefined }): { title: string; description: string } {
  const tags = product.seoData?.tags ?? [];
  const title = tags.find((t) => t.type === 'title')?.children ?? '';
  const meta = tags.find((t) => t.type === 'meta' && t.props?.name === 'description')?.props?.content;
  return { title, description: typeof meta === 'string' ? meta : '' };
}

/** The SEO tags for a title and description; other tags the product has are kept, blank fields drop theirs. */
export function seoTags(existing: readonly SeoTag[], fields: { title: string; description: string }): SeoTag[] {
  const others = existing.filter((t) => t.type !== 'title' && !(t.type === 'meta' && t.props?.name === 'description'));
  return [
    ...(fields.title.trim() ? [{ type: 'title', children: fields.title.trim() }] : []),
    ...(fields.description.trim() ? [{ type: 'meta', props: { name: 'description', content: fields.description.trim() } }] : []),
    ...others,
  ];
}

/** Moves the item at `from` to `to` (a copy; out-of-range moves return the list as it was). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** An option as the owner types it: a name and its choices separated by commas. */
export interface OptionDraft { name: string; choices: string }

/** "S, M, L" -> ['S', 'M', 'L'] (blank and repeated choices dropped). */
export function choiceList(text: string): string[] {
  return [...new Set(text.split(',').map((c) => c.trim()).filter(Boolean))];
}

/** Typed options as the V1 `productOptions` input (options without a name or a choice are left out). */
export function optionInputs(drafts: readonly OptionDraft[]): { name: string; choices: { value: string; description: string }[] }[] {
  return drafts.filter((o) => o.name.trim() && choiceList(o.choices).length > 0).map((o) => ({
    name: o.name.trim(),
    choices: choiceList(o.choices).map((c) => ({ value: c, description: c })),
  }));
}

export type ProductV3 = productsV3.ProductV3;
export type VariantV3 = productsV3.VariantV3;
export type ProductV3Input = productsV3.ProductV3Input;

/** "Size: M, Color: Black" for a V3 variant (no choices: the product itself). */
export function variantV3Label(v: Pick<VariantV3, 'choices'>): string {
  return v.choices.map((c) => `${c.optionChoiceNames.optionName}: ${c.optionChoiceNames.choiceName}`).join(', ') || 'Product';
}

/** Every way to pick one item of each list, the first list varying slowest ([] -> one empty pick). */
export function combinations<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((combos, list) => combos.flatMap((combo) => list.map((item) => [...combo, item])), [[]]);
}

/** Every combination of the options' choices (the variants a new V3 product starts with). */
export function choiceCombinations(options: readonly { name: string; choices: readonly string[] }[]): { optionName: string; choiceName: string }[][] {
  return combinations(options.map((o) => o.choices.map((choiceName) => ({ optionName: o.name, choiceName }))));
}

/**
 * Bounds of a V3 product's options as the server enforces them (its V3_LIMITS and option schema),
 * checked in the browser so an owner reads why before anything is sent.
 */
export const V3_OPTIONS_MAX = 6;
export const V3_CHOICES_MAX = 100;
export const V3_VARIANTS_MAX = 1000;
/** Longest option or choice name. */
export const V3_OPTION_NAME_MAX = 50;

/** A typed amount as the V3 wire's decimal text ("12" -> "12.00"); undefined when it is not an amount. */
export function amountText(text: string): string | undefined {
  const cents = toCents(text);
  return cents === undefined ? undefined : centsText(cents);
}
