import { randomUUID } from 'node:crypto';
import { isElevated, memberIdOf, type RequestContext } from '../../http/context.js';
import { conflict, forbidden, notFound, violation } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { validateRichContent } from './rich-text.js';
import { activeSelfId, parseFilter, requireMember, requireSelfId, visibleMember, whereFor, withFilter } from './service.js';
import {
  deleteAboutRow, findAbout, findAboutOfMember, insertAbout, isUniqueViolation, listAboutRows, updateAboutRow, type MemberAboutRecord,
} from './store.js';
import { MEMBER_PAGE_DEFAULT } from './limits.js';
import { openCursor, signCursor } from './cursor.js';
import type { AboutsPage } from './view.js';

/**
 * Member-about (members.membersAbout, /members/v2/abouts): one rich-text document per member. A member
 * writes their own; owners write anyone's; readers see the abouts of members they can see.
 * `revision` is int64 on the wire (a string) and must match on update (optimistic concurrency).
 */

export const ABOUT_PAGE_MAX = 100;

const aboutNotFound = (id: string) => notFound('MEMBER_ABOUT_NOT_FOUND', `Member about ${id} not found`, { id });

/** Writers: the member themselves (APPROVED), or an elevated caller. */
async function assertWriter(ctx: RequestContext, memberId: string): Promise<void> {
  if (isElevated(ctx.caller)) return;
  if (memberIdOf(ctx.caller) !== memberId) throw forbidden('MEMBER_FORBIDDEN', 'A member can only change their own about section');
  await activeSelfId(ctx);
}

export async function createMemberAbout(ctx: RequestContext, input: { memberId?: string | undefined; content?: unknown }): Promise<MemberAboutRecord> {
  const memberId = input.memberId ?? memberIdOf(ctx.caller);
  if (!memberId) throw violation('memberAbout.memberId', 'is required', 'REQUIRED_FIELD');
  await assertWriter(ctx, memberId);
  const content = validateRichContent(input.content ?? { nodes: [] }, 'memberAbout.content');
  return inTransaction(ctx.db, async (trx) => {
    await requireMember({ ...ctx, db: trx }, memberId);
    if (await findAboutOfMember(trx, ctx.site.id, memberId)) throw conflict('MEMBER_ABOUT_ALREADY_EXISTS', 'This member already has an about section', { memberId });
    const now = new Date().toISOString();
    const about: MemberAboutRecord = { id: randomUUID(), memberId, content, revision: 1, createdDate: now, updatedDate: now };
    try {
      await insertAbout(trx, ctx.site.id, about);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('MEMBER_ABOUT_ALREADY_EXISTS', 'This member already has an about section', { memberId });
      throw error;
    }
    return about;
  });
}

export async function updateMemberAbout(ctx: RequestContext, id: string, input: { memberId?: string | undefined; revision?: string | undefined; content?: unknown }): Promise<MemberAboutRecord> {
  const current = await findAbout(ctx.db, ctx.site.id, id);
  if (!current) throw aboutNotFound(id);
  if (viewerMayRead(ctx, current) === false) {
    await visibleMember(ctx, current.memberId).catch(() => { throw aboutNotFound(id); });
  }
  await assertWriter(ctx, current.memberId);
  if (input.memberId !== undefined && input.memberId !== current.memberId) throw violation('memberAbout.memberId', 'cannot be changed', 'FIELD_NOT_ALLOWED');
  const content = input.content === undefined ? current.content : validateRichContent(input.content, 'memberAbout.content');
  const expected = input.revision === undefined ? current.revision : Number(input.revision);
  if (expected !== current.revision) {
    throw conflict('REVISION_MISMATCH', `The about section is at revision ${current.revision}`, { currentRevision: String(current.revision) });
  }
  const now = new Date().toISOString();
  if (!(await updateAboutRow(ctx.db, ctx.site.id, id, content, expected, now))) {
    throw conflict('REVISION_MISMATCH', 'The about section changed meanwhile', { id });
  }
  return { ...current, content, revision: expected + 1, updatedDate: now };
}

function viewerMayRead(ctx: RequestContext, about: MemberAboutRecord): boolean {
  return isElevated(ctx.caller) || memberIdOf(ctx.caller) === about.memberId;
}

export async function getMemberAbout(ctx: RequestContext, id: string): Promise<MemberAboutRecord> {
  const about = await findAbout(ctx.db, ctx.site.id, id);
  if (!about) throw aboutNotFound(id);
  if (!viewerMayRead(ctx, about)) await visibleMember(ctx, about.memberId).catch(() => { throw aboutNotFound(id); });
  return about;
}

export async function getMyMemberAbout(ctx: RequestContext): Promise<MemberAboutRecord> {
  const memberId = requireSelfId(ctx);
  const about = await findAboutOfMember(ctx.db, ctx.site.id, memberId);
  if (!about) throw notFound('MEMBER_ABOUT_NOT_FOUND', 'You have no about section yet', { memberId });
  return about;
}

export async function deleteMemberAbout(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  const about = await findAbout(ctx.db, ctx.site.id, id);
  if (!about) throw aboutNotFound(id);
  if (!viewerMayRead(ctx, about)) await visibleMember(ctx, about.memberId).catch(() => { throw aboutNotFound(id); });
  await assertWriter(ctx, about.memberId);
  await deleteAboutRow(ctx.db, ctx.site.id, id);
  return {};
}

/**
 * Query: filter on the member fields the caller may filter on (`memberId` stands for the member's `id`),
 * newest first; cursor paging (a cursor request carries only `cursorPaging`; the filter is in the cursor).
 */
export async function queryMemberAbouts(ctx: RequestContext, input: { filter?: Record<string, unknown> | null | undefined; limit?: number | null | undefined; cursor?: string | null | undefined }): Promise<AboutsPage> {
  let filter: unknown = input.filter ?? undefined;
  let limit = input.limit ?? MEMBER_PAGE_DEFAULT;
  let offset = 0;
  if (input.cursor) {
    const state = await openCursor(ctx.db, ctx.site.id, input.cursor, 'query.cursorPaging.cursor');
    filter = state.filter;
    offset = state.offset;
    limit = input.limit ?? state.limit;
  }
  const f = filter as Record<string, unknown> | undefined;
  const memberFilter = f && 'memberId' in f ? { ...Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'memberId')), id: f.memberId } : f;
  const rows = await withFilter('query', async () => listAboutRows(ctx.db, whereFor(ctx, parseFilter(memberFilter), undefined), limit + 1, offset));
  const page = rows.slice(0, limit);
  const hasNext = rows.length > limit;
  const cursors: { next?: string; prev?: string } = {};
  if (hasNext) cursors.next = await signCursor(ctx.db, ctx.site.id, { filter: filter ?? null, offset: offset + limit, limit });
  if (offset > 0) cursors.prev = await signCursor(ctx.db, ctx.site.id, { filter: filter ?? null, offset: Math.max(0, offset - limit), limit });
  return { abouts: page, metadata: { count: page.length, cursors, hasNext } };
}
