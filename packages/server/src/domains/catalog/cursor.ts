import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../storage/database.js';
import { violation } from '../../http/errors.js';

/**
 * Opaque paging cursors (wire.md "Paging"): base64url(JSON) + "." + HMAC-SHA256, bound to the site and
 * to the query they continue (filter, sort and search travel inside, so a cursor request carries only
 * `cursorPaging`). The key lives in `catalog_secrets`, shared by every server process.
 */

declare module '../../storage/schema.js' {
  interface Database {
    catalog_secrets: { name: string; value: string };
  }
}

/** Cursors older than this are refused (a client paging for a day starts over). */
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest cursor we even try to verify. */
export const CURSOR_MAX_LENGTH = 16_000;

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

interface Envelope extends CursorState { site: string; iat: number }

const keys = new WeakMap<object, Buffer>();

async function cursorKey(db: Executor): Promise<Buffer> {
  const cached = keys.get(db);
  if (cached) return cached;
  const row = await db.selectFrom('catalog_secrets').select('value').where('name', '=', 'cursor').executeTakeFirstOrThrow();
  const key = Buffer.from(row.value, 'base64url');
  keys.set(db, key);
  return key;
}

export async function signCursor(db: Executor, siteId: string, state: CursorState): Promise<string> {
  const body = Buffer.from(JSON.stringify({ ...state, site: siteId, iat: Date.now() } satisfies Envelope)).toString('base64url');
  const mac = createHmac('sha256', await cursorKey(db)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The state of a cursor this server issued for this site and kind; anything else is a 400 on `field`. */
export async function openCursor(db: Executor, siteId: string, kind: string, cursor: string, field: string): Promise<CursorState> {
  const bad = () => violation(field, 'is not a valid cursor', 'FORMAT');
  if (cursor.length > CURSOR_MAX_LENGTH) throw bad();
  const [body, mac] = cursor.split('.');
  if (!body || !mac) throw bad();
  const expected = createHmac('sha256', await cursorKey(db)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let env: Envelope;
  try {
    env = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Envelope;
  } catch {
    throw bad();
  }
  if (env.site !== siteId || env.kind !== kind || Date.now() - env.iat > CURSOR_TTL_MS) throw bad();
  const { site: _s, iat: _i, ...state } = env;
  return state;
}
