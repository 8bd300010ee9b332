import type { Executor } from '../../storage/database.js';
import { violation } from '../../http/errors.js';
import { catalogSecretKey } from './store.js';
import { openCursor as open, signCursor as sign } from '../../http/cursor.js';

/**
 * Catalog paging cursors (http/cursor.ts) under the key in `catalog_secrets`, shared by every server
 * process; filter, sort and search travel inside, so a cursor request carries only `cursorPaging`.
 */

export interface CursorState {
  /** What the cursor pages: e.g. `products.v3.query`. */
  kind: string;
  filter?: unknown;
  sort?: unknown;
  search?: unknown;
  aggregations?: unknown;
  offset: number;
  limit: number;
}

export async function signCursor(db: Executor, siteId: string, state: CursorState): Promise<string> {
  return sign(await catalogSecretKey(db, 'cursor'), siteId, state.kind, state);
}

/** The state of a cursor this server issued for this site and kind; anything else is a 400 on `field`. */
export async function openCursor(db: Executor, siteId: string, kind: string, cursor: string, field: string): Promise<CursorState> {
  const state = open<CursorState>(await catalogSecretKey(db, 'cursor'), siteId, kind, cursor);
  if (!state) throw violation(field, 'is not a valid cursor', 'FORMAT');
  return state;
}
