import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../storage/database.js';
import { violation } from '../../http/errors.js';

/**
 * Opaque, signed paging cursors (wire.md "Paging"): base64url(JSON) + "." + HMAC-SHA256, bound to the
 * site and to the filter they continue. The key lives in `member_secrets`.
 */

declare module '../../storage/schema.js' {
  interface Database {
    member_secrets: { name: string; value: string };
  }
}

export const CURSOR_MAX_LENGTH = 16_000;
/** Cursors older than this are refused. */
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;

export interface CursorState { filter: unknown; offset: number; limit: number }
interface Envelope extends CursorState { site: string; iat: number }

const keys = new WeakMap<object, Buffer>();

async function cursorKey(db: Executor): Promise<Buffer> {
  const cached = keys.get(db);
  if (cached) return cached;
  const row = await db.selectFrom('member_secrets').select('value').where('name', '=', 'cursor').executeTakeFirstOrThrow();
  const key = Buffer.from(row.value, 'base64url');
  keys.set(db, key);
  return key;
}

export async function signCursor(db: Executor, siteId: string, state: CursorState): Promise<string> {
  const body = Buffer.from(JSON.stringify({ ...state, site: siteId, iat: Date.now() } satisfies Envelope)).toString('base64url');
  return `${body}.${createHmac('sha256', await cursorKey(db)).update(body).digest('base64url')}`;
}

export async function openCursor(db: Executor, siteId: string, cursor: string, field: string): Promise<CursorState> {
  const bad = () => violation(field, 'is not a valid cursor', 'FORMAT');
  if (cursor.length > CURSOR_MAX_LENGTH) throw bad();
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined) throw bad();
  const expected = createHmac('sha256', await cursorKey(db)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  const env = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Envelope;
  if (env.site !== siteId || Date.now() - env.iat > CURSOR_TTL_MS) throw bad();
  return { filter: env.filter, offset: env.offset, limit: env.limit };
}
