import type { RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import { deleteFullTextRows, fullTextHits, insertFullTextRows, type FullTextIndex, type FullTextRow } from '../../storage/fulltext.js';
import type { Catalog } from './model.js';

/**
 * Full-text search over product name, SKU, brand and description (storage/fulltext.ts: FTS5 on
 * SQLite, a weighted tsvector on PostgreSQL). Rows are written by the same transaction as the
 * product write, so search never sees a product the catalog does not have (or misses one it has).
 */
export const CATALOG_SEARCH: FullTextIndex = {
  table: 'catalog_search',
  key: 'entity_id',
  scope: ['site_id', 'catalog'],
  fields: [
    { name: 'name', weight: 'A', bm25: 10 },
    { name: 'sku', weight: 'A', bm25: 8 },
    { name: 'brand', weight: 'B', bm25: 4 },
    { name: 'description', weight: 'C', bm25: 1 },
  ],
};

declare module '../../storage/schema.js' {
  interface Database {
    catalog_search: { entity_id: string; site_id: string; catalog: string };
  }
}

export interface SearchDoc { id: string; catalog: Catalog; name: string; sku: string; brand: string; description: string }

/** Longest search expression we pass to the engine. */
export const SEARCH_EXPRESSION_MAX = 200;
/** Most terms of one expression (each becomes a prefix match). */
export const SEARCH_TERMS_MAX = 10;

export async function writeSearchDoc(db: Executor, siteId: string, doc: SearchDoc): Promise<void> {
  await deleteSearchDoc(db, doc.id);
  await insertFullTextRows(db, CATALOG_SEARCH, [searchRow(siteId, doc)]);
}

/** A product's row of the search index. */
export function searchRow(siteId: string, doc: SearchDoc): FullTextRow {
  return { key: doc.id, scope: [siteId, doc.catalog], fields: [doc.name, doc.sku, doc.brand, doc.description] };
}

export async function deleteSearchDoc(db: Executor, id: string): Promise<void> {
  await deleteFullTextRows(db, CATALOG_SEARCH, [id]);
}

/** Words of an expression, reduced to letters and digits so no engine syntax reaches the query. */
export function searchTerms(expression: string): string[] {
  return expression.slice(0, SEARCH_EXPRESSION_MAX).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, SEARCH_TERMS_MAX);
}

/**
 * A subquery of the site's matches as rows `(entity_id, rank)`, higher rank better. Each term is a
 * prefix match and every term must match. Join it to the products table to filter and order by rank.
 * `ranked` false: rank is 0 for every row (counting and facets need no ranking, which costs per match).
 */
export function searchHits(dialect: DialectName, siteId: string, catalog: Catalog, terms: string[], ranked = true): RawBuilder<unknown> {
  return fullTextHits(dialect, CATALOG_SEARCH, [siteId, catalog], terms, { ranked });
}
