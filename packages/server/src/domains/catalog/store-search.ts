import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { DialectName } from '../../storage/dialect.js';
import type { Catalog } from './model.js';

/**
 * Full-text search over product name, SKU, brand and description: an FTS5 table on SQLite, a
 * weighted tsvector with a GIN index on PostgreSQL. Rows are written by the same transaction as the
 * product write, so search never sees a product the catalog does not have (or misses one it has).
 */

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

export async function writeSearchDoc(db: Executor, dialect: DialectName, siteId: string, doc: SearchDoc): Promise<void> {
  await deleteSearchDoc(db, doc.id);
  if (dialect === 'postgres') {
    await sql`INSERT INTO catalog_search (entity_id, site_id, catalog, document) VALUES (${doc.id}, ${siteId}, ${doc.catalog},
      setweight(to_tsvector('simple', ${doc.name}), 'A') || setweight(to_tsvector('simple', ${doc.sku}), 'A')
      || setweight(to_tsvector('simple', ${doc.brand}), 'B') || setweight(to_tsvector('simple', ${doc.description}), 'C'))`.execute(db);
  } else {
    await sql`INSERT INTO catalog_search (entity_id, site_id, catalog, name, sku, brand, description) VALUES (${doc.id}, ${siteId}, ${doc.catalog}, ${doc.name}, ${doc.sku}, ${doc.brand}, ${doc.description})`.execute(db);
  }
}

export async function deleteSearchDoc(db: Executor, id: string): Promise<void> {
  await sql`DELETE FROM catalog_search WHERE entity_id = ${id}`.execute(db);
}

/** Words of an expression, reduced to letters and digits so no engine syntax reaches the query. */
export function searchTerms(expression: string): string[] {
  return expression.slice(0, SEARCH_EXPRESSION_MAX).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, SEARCH_TERMS_MAX);
}

/**
 * A subquery of the site's matches as rows `(entity_id, rank)`, higher rank better. Each term is a
 * prefix match and every term must match. Join it to the products table to filter and order by rank.
 */
export function searchHits(dialect: DialectName, siteId: string, catalog: Catalog, terms: string[]): RawBuilder<unknown> {
  // An expression with no searchable word matches nothing.
  if (terms.length === 0) return sql`(SELECT entity_id, 0 AS rank FROM catalog_search WHERE 1 = 0)`;
  if (dialect === 'postgres') {
    const query = terms.map((t) => `${t}:*`).join(' & ');
    return sql`(SELECT entity_id, ts_rank('{0.1, 0.2, 0.6, 1.0}', document, to_tsquery('simple', ${query})) AS rank
      FROM catalog_search WHERE site_id = ${siteId} AND catalog = ${catalog} AND document @@ to_tsquery('simple', ${query}))`;
  }
  const match = terms.map((t) => `"${t}"*`).join(' ');
  // bm25 is lower-is-better; column weights: name 10, sku 8, brand 4, description 1.
  return sql`(SELECT entity_id, -bm25(catalog_search, 0, 0, 0, 10.0, 8.0, 4.0, 1.0) AS rank
    FROM catalog_search WHERE catalog_search MATCH ${match} AND site_id = ${siteId} AND catalog = ${catalog})`;
}

/** Ids of matching products of a site, best first, at most `limit`. */
export async function searchIds(db: Executor, dialect: DialectName, siteId: string, catalog: Catalog, terms: string[], limit: number): Promise<{ id: string; rank: number }[]> {
  if (terms.length === 0) return [];
  if (dialect === 'postgres') {
    const query = terms.map((t) => `${t}:*`).join(' & ');
    const r = await sql<{ id: string; rank: number }>`SELECT entity_id AS id, ts_rank('{0.1, 0.2, 0.6, 1.0}', document, to_tsquery('simple', ${query})) AS rank
      FROM catalog_search WHERE site_id = ${siteId} AND catalog = ${catalog} AND document @@ to_tsquery('simple', ${query})
      ORDER BY rank DESC, entity_id ASC LIMIT ${limit}`.execute(db);
    return r.rows;
  }
  const match = terms.map((t) => `"${t}"*`).join(' ');
  const r = await sql<{ id: string; rank: number }>`SELECT entity_id AS id, -bm25(catalog_search, 0, 0, 0, 10.0, 8.0, 4.0, 1.0) AS rank
    FROM catalog_search WHERE catalog_search MATCH ${match} AND site_id = ${siteId} AND catalog = ${catalog}
    ORDER BY rank DESC, entity_id ASC LIMIT ${limit}`.execute(db);
  return r.rows;
}
