import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { openCursor, signCursor as sign } from '../../http/cursor.js';
import { badCursor } from './errors.js';
import { cursorSecret } from './store.js';

/**
 * Data paging cursors (http/cursor.ts) under a per-site secret in `data_cursor_keys`; `call` names the
 * listing, so a cursor of one call is refused by another.
 */

const secrets = new Map<string, Buffer>();

async function secretFor(ctx: RequestContext): Promise<Buffer> {
  const hit = secrets.get(ctx.site.id);
  if (hit) return hit;
  const secret = Buffer.from(await cursorSecret(ctx.deps.storage.db, ctx.site.id, randomBytes(32).toString('base64url')), 'base64url');
  secrets.set(ctx.site.id, secret);
  return secret;
}

export async function signCursor(ctx: RequestContext, call: string, state: Record<string, unknown>): Promise<string> {
  return sign(await secretFor(ctx), ctx.site.id, call, state);
}

export async function readCursor<T>(ctx: RequestContext, call: string, cursor: string): Promise<T> {
  const state = openCursor<T>(await secretFor(ctx), ctx.site.id, call, cursor);
  if (state === undefined) throw badCursor();
  return state;
}
