import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import type { ReportReason } from './model.js';
import { activeSelfId, changeActivity, visibleMember } from './service.js';
import { findOpenReport, findReport, insertReport, listReportRows, resolveReportRow, type MemberReport, type ReportStatus } from './store.js';
import { REPORT_PAGE_DEFAULT } from './limits.js';

/**
 * Member reports: a member reports another member they can see, with a reason; one open report per
 * reporter and member. Owners list reports and resolve them, optionally muting the reported member.
 */

export async function reportMember(ctx: RequestContext, input: { memberId: string; reason: ReportReason; details?: string | undefined }): Promise<{ report: MemberReport }> {
  const reporterId = await activeSelfId(ctx);
  if (input.memberId === reporterId) throw badRequest('CANNOT_REPORT_SELF', 'A member cannot report themselves');
  await visibleMember(ctx, input.memberId);
  const report: MemberReport = {
    id: randomUUID(),
    reporterId,
    memberId: input.memberId,
    reason: input.reason,
    ...(input.details ? { details: input.details } : {}),
    status: 'OPEN',
    createdDate: new Date().toISOString(),
  };
  await inTransaction(ctx.db, async (trx) => {
    if (await findOpenReport(trx, ctx.site.id, reporterId, input.memberId)) {
      throw conflict('MEMBER_ALREADY_REPORTED', 'You already reported this member; the report is still open', { memberId: input.memberId });
    }
    await insertReport(trx, ctx.site.id, report);
  });
  return { report };
}

export async function listReports(ctx: RequestContext, input: { status?: ReportStatus | undefined; memberId?: string | undefined; paging?: { limit?: number | null | undefined; offset?: number | null | undefined } | undefined }) {
  const limit = input.paging?.limit ?? REPORT_PAGE_DEFAULT;
  const offset = input.paging?.offset ?? 0;
  const { reports, total } = await listReportRows(ctx.db, ctx.site.id, { status: input.status, memberId: input.memberId, limit, offset });
  return { reports, metadata: { count: reports.length, offset, total, tooManyToCount: false } };
}

/** OPEN -> RESOLVED; `mute` mutes the reported member in the same transaction (already muted: left so). */
export async function resolveReport(ctx: RequestContext, id: string, input: { mute?: boolean | undefined; note?: string | undefined }): Promise<{ report: MemberReport }> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const report = await findReport(trx, ctx.site.id, id);
    if (!report) throw notFound('REPORT_NOT_FOUND', `Report ${id} not found`, { id });
    if (report.status !== 'OPEN') throw conflict('REPORT_ALREADY_RESOLVED', 'This report is already resolved', { id });
    let muted = false;
    if (input.mute) {
      const member = await visibleMember(tctx, report.memberId);
      if (member.activityStatus !== 'MUTED') await changeActivity(tctx, report.memberId, 'mute');
      muted = true;
    }
    const resolution = { muted, ...(input.note ? { note: input.note } : {}) };
    const now = new Date().toISOString();
    if (!(await resolveReportRow(trx, ctx.site.id, id, resolution, now))) throw conflict('REPORT_ALREADY_RESOLVED', 'This report is already resolved', { id });
    return { report: { ...report, status: 'RESOLVED' as const, resolution, resolvedDate: now } };
  });
}
