import type { Executor } from '../../storage/database.js';
import { violation } from '../../http/errors.js';
import { findMemberSecret } from './store.js';
import { openCursor as open, signCursor as sign } from '../../http/cursor.js';

/** Member-about paging cursors (http/cursor.ts) under the key in `member_secrets`. */

const KIND = 'members.abouts';

export interface CursorState { filter: unknown; offset: number; limit: number }

const keys = new WeakMap<object, Buffer>();

async function cursorKey(db: Executor): Promise<Buffer> {
  const cached = keys.get(db);
  if (cached) return cached;
  const key = Buffer.from(await findMemberSecret(db, 'cursor'), 'base64url');
  keys.set(db, key);
  return key;
}

export async function signCursor(db: Executor, siteId: string, state: CursorState): Promise<string> {
  return sign(await cursorKey(db), siteId, KIND, state);
}

export async function openCursor(db: Executor, siteId: string, cursor: string, field: string): Promise<CursorState> {
  const state = open<CursorState>(await cursorKey(db), siteId, KIND, cursor);
  if (!state) throw violation(field, 'is not a valid cursor', 'FORMAT');
  return { filter: state.filter, offset: state.offset, limit: state.limit };
}
