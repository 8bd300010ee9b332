import type { DataPagingMetadata } from '@vitrine/types/data';
import type { RequestContext } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import { PAGE_DEFAULT, PAGE_MAX } from './common.js';
import { readCursor, signCursor } from './cursor.js';
import { skipWithCursor } from './errors.js';
import { isPlainObject } from './values.js';

/**
 * Offset and cursor paging of data calls. A cursor carries the call's filter, sort and other state,
 * so a request with a cursor needs nothing else; the cursor is signed and bound to the site (cursor.ts).
 */

export interface Paging<S> { call: string; limit: number; offset: number; state: S }

/** Offsets past this are refused: deep offsets are slow scans. */
export const OFFSET_MAX = 1_000_000;

function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw violation(field, `must be an integer from ${min} to ${max}`, value !== undefined && typeof value === 'number' && value > max ? 'MAX' : 'MIN', { min, max });
  return value;
}

export async function readPaging<S>(ctx: RequestContext, call: string, input: { paging?: unknown; cursorPaging?: unknown }, state: S, prefix = ''): Promise<Paging<S>> {
  const paging = isPlainObject(input.paging) ? input.paging : undefined;
  const cursorPaging = isPlainObject(input.cursorPaging) ? input.cursorPaging : undefined;
  const cursor = cursorPaging?.cursor;
  if (cursor !== undefined && cursor !== null && cursor !== '') {
    if (typeof cursor !== 'string') throw violation(`${prefix}cursorPaging.cursor`, 'must be a string', 'FORMAT');
    if (paging?.offset !== undefined && paging.offset !== 0) throw skipWithCursor();
    const saved = await readCursor<{ o: number; l: number; s: S }>(ctx, call, cursor);
    const limit = cursorPaging?.limit !== undefined && cursorPaging.limit !== null ? int(cursorPaging.limit, `${prefix}cursorPaging.limit`, 1, PAGE_MAX) : saved.l;
    return { call, limit, offset: saved.o, state: saved.s };
  }
  const rawLimit = paging?.limit ?? cursorPaging?.limit;
  const limit = rawLimit === undefined || rawLimit === null ? PAGE_DEFAULT : int(rawLimit, `${prefix}paging.limit`, 1, PAGE_MAX);
  const offset = paging?.offset === undefined || paging.offset === null ? 0 : int(paging.offset, `${prefix}paging.offset`, 0, OFFSET_MAX);
  return { call, limit, offset, state };
}

/** Paging metadata of item reads: the wire shape itself (cursors are signed here, so the service builds it). */
export type PagingMetadata = DataPagingMetadata;

export async function pagingMetadata<S>(ctx: RequestContext, paging: Paging<S>, count: number, hasNext: boolean, total: number | undefined): Promise<PagingMetadata> {
  const cursors: { next?: string; prev?: string } = {};
  if (hasNext) cursors.next = await signCursor(ctx, paging.call, { o: paging.offset + paging.limit, l: paging.limit, s: paging.state });
  if (paging.offset > 0) cursors.prev = await signCursor(ctx, paging.call, { o: Math.max(0, paging.offset - paging.limit), l: paging.limit, s: paging.state });
  return { count, offset: paging.offset, ...(total !== undefined ? { total } : {}), tooManyToCount: false, cursors, hasNext };
}
