import type { Executor } from '../../storage/database.js';

/** A product row as cart and checkout lines read it (line-products.ts): the document and what decides who sees it. */
export interface LineProductRow { id: string; visible: number; doc: unknown; created_date: string; last_updated: string }

/** The rows of `ids` on the site, one statement (primary-key lookups), collections not read. */
export async function findProductRowsForLines(db: Executor, siteId: string, ids: string[]): Promise<LineProductRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('products').select(['id', 'visible', 'doc', 'created_date', 'last_updated']).where('site_id', '=', siteId).where('id', 'in', ids).execute();
}
