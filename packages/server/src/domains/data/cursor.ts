import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { badCursor } from './errors.js';
import { cursorSecret } from './store.js';

/**
 * Paging cursors: base64url(JSON state) + "." + HMAC-SHA256 under a per-site secret. The state names
 * the site and the call, so a cursor of one site or one call is refused by another.
 */

/** Cursors older than this are refused (a query's result set drifts; callers start over). */
export const CURSOR_TTL_MS = 24 * 3600 * 1000;
const secrets = new Map<string, Buffer>();

async function secretFor(ctx: RequestContext): Promise<Buffer> {
  const hit = secrets.get(ctx.site.id);
  if (hit) return hit;
  const secret = Buffer.from(await cursorSecret(ctx.deps.storage.db, ctx.site.id, randomBytes(32).toString('base64url')), 'base64url');
  secrets.set(ctx.site.id, secret);
  return secret;
}

export async function signCursor(ctx: RequestContext, call: string, state: Record<string, unknown>): Promise<string> {
  const body = Buffer.from(JSON.stringify({ s: ctx.site.id, c: call, t: Date.now(), q: state })).toString('base64url');
  const mac = createHmac('sha256', await secretFor(ctx)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

export async function readCursor<T>(ctx: RequestContext, call: string, cursor: string): Promise<T> {
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined || cursor.length > 64 * 1024) throw badCursor();
  const expected = createHmac('sha256', await secretFor(ctx)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badCursor();
  const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { s: string; c: string; t: number; q: T };
  if (parsed.s !== ctx.site.id || parsed.c !== call || Date.now() - parsed.t > CURSOR_TTL_MS) throw badCursor();
  return parsed.q;
}
