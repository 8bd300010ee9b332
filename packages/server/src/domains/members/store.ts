import type { RichContent } from '@vitrine/types/members';
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { escapeLike, forUpdate, ilike, readJson, toJson, type DialectName } from '../../storage/dialect.js';
import { allowlist, compileFilter, type FilterField, type FilterNode, type FilterTarget } from '../../storage/filter.js';
import { CountsWhileUnchanged, SiteVersion } from '../../storage/site-versions.js';
import type { MemberReport, ReportReason, ReportStatus } from '@vitrine/types/members';
import type { Member, MemberContact, MemberProfile, MemberRole, MemberStatus } from './model.js';

interface MembersTable {
  id: string;
  site_id: string;
  login_email: string;
  login_email_verified: Bool01;
  status: string;
  privacy_status: string;
  activity_status: string;
  slug: string;
  nickname: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  roles: unknown;
  doc: unknown;
  created_date: string;
  updated_date: string;
  last_login_date: string | null;
}

interface MemberAboutsTable {
  id: string;
  site_id: string;
  member_id: string;
  content: unknown;
  revision: number;
  created_date: string;
  updated_date: string;
}

interface MemberReportsTable {
  id: string;
  site_id: string;
  reporter_id: string;
  member_id: string;
  reason: string;
  details: string | null;
  status: string;
  resolution: unknown;
  created_date: string;
  resolved_date: string | null;
}

interface MemberJobsTable {
  id: string;
  site_id: string;
  kind: string;
  status: string;
  params: unknown;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  created_date: string;
  updated_date: string;
  finished_date: string | null;
  errors: unknown;
}

interface MemberJobItemsTable {
  job_id: string;
  member_id: string;
  state: string;
  error: unknown;
}

declare module '../../storage/schema.js' {
  interface Database {
    members: MembersTable;
    member_abouts: MemberAboutsTable;
    member_reports: MemberReportsTable;
    member_jobs: MemberJobsTable;
    member_job_items: MemberJobItemsTable;
    member_versions: { site_id: string; version: number };
  }
}

/** What `doc` holds: contact and profile without the columns. */
interface MemberDoc {
  contactId: string;
  contact: Omit<MemberContact, 'firstName' | 'lastName'>;
  profile: Omit<MemberProfile, 'nickname' | 'slug' | 'title'>;
}

function memberRow(siteId: string, m: Member): MembersTable {
  const { firstName, lastName, ...contact } = m.contact;
  const { nickname, slug: _slug, title, ...profile } = m.profile;
  const doc: MemberDoc = { contactId: m.contactId, contact, profile };
  return {
    id: m.id,
    site_id: siteId,
    login_email: m.loginEmail,
    login_email_verified: m.loginEmailVerified ? 1 : 0,
    status: m.status,
    privacy_status: m.privacyStatus,
    activity_status: m.activityStatus,
    slug: m.profile.slug,
    nickname: nickname ?? null,
    first_name: firstName ?? null,
    last_name: lastName ?? null,
    title: title ?? null,
    roles: toJson(m.roles),
    doc: toJson(doc),
    created_date: m.createdDate,
    updated_date: m.updatedDate,
    last_login_date: m.lastLoginDate ?? null,
  };
}

export function toMember(row: MembersTable): Member {
  const doc = readJson<MemberDoc>(row.doc);
  const contact: MemberContact = {
    ...(row.first_name !== null ? { firstName: row.first_name } : {}),
    ...(row.last_name !== null ? { lastName: row.last_name } : {}),
    ...doc.contact,
  };
  const profile = {
    ...(row.nickname !== null ? { nickname: row.nickname } : {}),
    slug: row.slug,
    ...(row.title !== null ? { title: row.title } : {}),
    ...doc.profile,
  };
  return {
    id: row.id,
    loginEmail: row.login_email,
    loginEmailVerified: row.login_email_verified === 1,
    status: row.status as MemberStatus,
    contactId: doc.contactId,
    contact,
    profile,
    privacyStatus: row.privacy_status as Member['privacyStatus'],
    activityStatus: row.activity_status as Member['activityStatus'],
    roles: readJson<MemberRole[]>(row.roles),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
    ...(row.last_login_date ? { lastLoginDate: row.last_login_date } : {}),
  };
}

/**
 * The site's members version (storage/site-versions.ts), raised after every committed write to
 * `members` (each goes through this file), so query totals are counted once per version.
 */
const membersVersion = new SiteVersion('member_versions');
/** Query totals kept per database handle (least recently used dropped beyond this many). */
export const MEMBER_COUNT_CACHE_SIZE = 1000;
const memberCounts = new CountsWhileUnchanged(membersVersion, MEMBER_COUNT_CACHE_SIZE);

export async function insertMember(db: Executor, siteId: string, member: Member): Promise<void> {
  await db.insertInto('members').values(memberRow(siteId, member)).execute();
  await membersVersion.changed(db, siteId);
}

/**
 * Inserts unless a unique key (id, site + slug, site + login e-mail) is taken; false then. Used where a
 * concurrent insert may win the race for a slug, without aborting the caller's transaction.
 */
export async function insertMemberIfFree(db: Executor, siteId: string, member: Member): Promise<boolean> {
  const result = await db.insertInto('members').values(memberRow(siteId, member)).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  const inserted = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (inserted) await membersVersion.changed(db, siteId);
  return inserted;
}

/** A unique-constraint violation of either dialect (a lost race; callers map it to 409). */
export { isUniqueViolation } from '../../storage/errors.js';

/** Rewrites every column of a member (the service computes the whole new member). */
export async function replaceMember(db: Executor, siteId: string, member: Member): Promise<void> {
  const { id: _id, site_id: _site, created_date: _c, ...rest } = memberRow(siteId, member);
  await db.updateTable('members').set(rest).where('site_id', '=', siteId).where('id', '=', member.id).execute();
  await membersVersion.changed(db, siteId);
}

export async function findMember(db: Executor, siteId: string, id: string): Promise<Member | undefined> {
  const row = await db.selectFrom('members').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? toMember(row) : undefined;
}

/**
 * The member, locked until the transaction ends on PostgreSQL (SQLite runs one writer at a time), so
 * two concurrent status changes cannot both read the old status.
 */
export async function findMemberForUpdate(db: Executor, siteId: string, id: string, dialect: DialectName): Promise<Member | undefined> {
  const row = await db.selectFrom('members').selectAll().where('site_id', '=', siteId).where('id', '=', id).modifyEnd(forUpdate(dialect)).executeTakeFirst();
  return row ? toMember(row) : undefined;
}

export async function findMemberStatus(db: Executor, siteId: string, id: string): Promise<MemberStatus | undefined> {
  const row = await db.selectFrom('members').select('status').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row?.status as MemberStatus | undefined;
}

/** Id of the member holding `slug` on the site, if any. */
export async function findMemberIdBySlug(db: Executor, siteId: string, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('members').select('id').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst();
  return row?.id;
}

/** Slugs on the site that start with `base` (to pick a free `base-N`). */
export async function slugsStartingWith(db: Executor, siteId: string, base: string): Promise<string[]> {
  const rows = await db.selectFrom('members').select('slug').where('site_id', '=', siteId)
    .where('slug', '>=', base).where('slug', '<', `${base}\uffff`).execute();
  return rows.map((r) => r.slug);
}

export async function findMemberIdByLoginEmail(db: Executor, siteId: string, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('members').select('id').where('site_id', '=', siteId).where('login_email', '=', email).executeTakeFirst();
  return row?.id;
}

export async function deleteMemberRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  await db.deleteFrom('member_abouts').where('site_id', '=', siteId).where('member_id', '=', id).execute();
  const result = await db.deleteFrom('members').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  const deleted = Number(result.numDeletedRows) > 0;
  if (deleted) await membersVersion.changed(db, siteId);
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Filterable and sortable member fields, by wire path; `public` ones may be used by any caller. */
const MEMBER_FIELDS = allowlist<{ column: string; type: 'string' | 'date'; public: boolean }>({
  id: { column: 'id', type: 'string', public: true },
  loginEmail: { column: 'login_email', type: 'string', public: false },
  status: { column: 'status', type: 'string', public: false },
  privacyStatus: { column: 'privacy_status', type: 'string', public: false },
  activityStatus: { column: 'activity_status', type: 'string', public: false },
  'contact.firstName': { column: 'first_name', type: 'string', public: false },
  'contact.lastName': { column: 'last_name', type: 'string', public: false },
  'profile.nickname': { column: 'nickname', type: 'string', public: true },
  'profile.slug': { column: 'slug', type: 'string', public: true },
  'profile.title': { column: 'title', type: 'string', public: true },
  createdDate: { column: 'created_date', type: 'date', public: true },
  updatedDate: { column: 'updated_date', type: 'date', public: true },
  lastLoginDate: { column: 'last_login_date', type: 'date', public: false },
  // The caller-side names, for clients that do not rename inside `sorting` values.
  _id: { column: 'id', type: 'string', public: true },
  _createdDate: { column: 'created_date', type: 'date', public: true },
  _updatedDate: { column: 'updated_date', type: 'date', public: true },
});

/** The filter target of member queries; non-elevated callers reach only the public fields. */
export function memberFilterTarget(elevated: boolean): FilterTarget {
  return {
    field(path: string): FilterField | undefined {
      const f = MEMBER_FIELDS[path];
      if (!f || (!elevated && !f.public)) return undefined;
      return { expr: sql.ref(`m.${f.column}`), type: f.type };
    },
  };
}

export function memberSortColumn(elevated: boolean): (field: string) => RawBuilder<unknown> | undefined {
  return (field) => {
    const f = MEMBER_FIELDS[field];
    return f && (elevated || f.public) ? sql.ref(`m.${f.column}`) : undefined;
  };
}

/** Columns behind the search field names of queryMembers. */
export const SEARCH_COLUMNS = allowlist<string>({
  loginEmail: 'login_email',
  'contact.firstName': 'first_name',
  'contact.lastName': 'last_name',
  'profile.title': 'title',
  'profile.nickname': 'nickname',
  'profile.slug': 'slug',
});

export interface MemberWhere {
  siteId: string;
  filter: FilterNode | undefined;
  elevated: boolean;
  /** Non-elevated callers see public, approved-or-offline members, plus this member (themselves). */
  selfId: string | undefined;
  search: { expression: string; fields: string[] } | undefined;
  dialect: DialectName;
}

function memberWhere(q: MemberWhere): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`m.site_id = ${q.siteId}`];
  if (!q.elevated) {
    const visible = sql<boolean>`(m.privacy_status = 'PUBLIC' AND m.status IN ('APPROVED', 'OFFLINE'))`;
    parts.push(q.selfId ? sql<boolean>`(${visible} OR m.id = ${q.selfId})` : visible);
  }
  if (q.filter) parts.push(compileFilter(q.filter, memberFilterTarget(q.elevated), q.dialect));
  if (q.search) {
    const pattern = `%${escapeLike(q.search.expression)}%`;
    const ors = q.search.fields.map((f) => ilike(q.dialect, sql.ref(`m.${SEARCH_COLUMNS[f]!}`), pattern));
    parts.push(sql<boolean>`(${sql.join(ors, sql` OR `)})`);
  }
  return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
}

export interface MemberQuery extends MemberWhere {
  sort: { expr: RawBuilder<unknown>; order: 'ASC' | 'DESC' }[];
  limit: number;
  offset: number;
  countCap: number;
}

/** One page plus a count bounded by `countCap` (`tooManyToCount` beyond it). */
export async function queryMemberRows(db: Executor, q: MemberQuery): Promise<{ members: Member[]; total: number; tooManyToCount: boolean }> {
  const where = memberWhere(q);
  const order = q.sort.length > 0
    // NULLS LAST in both directions, so both dialects page alike (they differ by default).
    ? sql.join([...q.sort.map((s) => sql`${s.expr} ${sql.raw(s.order)} NULLS LAST`), sql`m.id ASC`])
    : sql`m.created_date DESC, m.id ASC`;
  const rows = await sql<MembersTable>`SELECT m.* FROM members m WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  const countQuery = sql<{ total: number }>`SELECT COUNT(*) AS total FROM (SELECT 1 FROM members m WHERE ${where} LIMIT ${q.countCap + 1}) capped`.compile(db);
  const total = await memberCounts.count(db, q.siteId, `${countQuery.sql}\u0000${JSON.stringify(countQuery.parameters)}`,
    async () => Number((await db.executeQuery(countQuery)).rows[0]?.total ?? 0));
  return { members: rows.rows.map(toMember), total: Math.min(total, q.countCap), tooManyToCount: total > q.countCap };
}

// ---------------------------------------------------------------------------------------------
// Bulk jobs

export type JobKind = 'APPROVE' | 'BLOCK' | 'DELETE';
export type JobStatus = 'INITIALIZED' | 'PROCESSING' | 'FINISHED' | 'FAILED';
export interface JobItemError { memberId: string; code: string; description: string }
export interface JobParams {
  contentAssigneeId?: string | undefined;
  /** Who started the job, for the events the job records. */
  actor: { kind: 'owner'; apiKeyId: string } | { kind: 'app'; appId: string };
}
export interface MemberJob {
  id: string;
  siteId: string;
  kind: JobKind;
  status: JobStatus;
  params: JobParams;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  errors: JobItemError[];
  createdDate: string;
  updatedDate: string;
  finishedDate?: string;
}

function toJob(row: MemberJobsTable): MemberJob {
  return {
    id: row.id,
    siteId: row.site_id,
    kind: row.kind as JobKind,
    status: row.status as JobStatus,
    params: readJson<JobParams>(row.params),
    total: row.total,
    processed: row.processed,
    succeeded: row.succeeded,
    failed: row.failed,
    errors: row.errors ? readJson<JobItemError[]>(row.errors) : [],
    createdDate: row.created_date,
    updatedDate: row.updated_date,
    ...(row.finished_date ? { finishedDate: row.finished_date } : {}),
  };
}

/** Creates a job and freezes the ids of the members matching `where` into its items, in one statement. */
export async function insertJobWithItems(db: Executor, job: { id: string; siteId: string; kind: JobKind; params: JobParams; now: string }, where: MemberWhere): Promise<number> {
  await db.insertInto('member_jobs').values({
    id: job.id, site_id: job.siteId, kind: job.kind, status: 'INITIALIZED', params: toJson(job.params),
    total: 0, processed: 0, succeeded: 0, failed: 0, created_date: job.now, updated_date: job.now, finished_date: null, errors: toJson([]),
  }).execute();
  await sql`INSERT INTO member_job_items (job_id, member_id, state) SELECT ${job.id}, m.id, 'PENDING' FROM members m WHERE ${memberWhere(where)}`.execute(db);
  const counted = await db.selectFrom('member_job_items').select((eb) => eb.fn.countAll<number>().as('n')).where('job_id', '=', job.id).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  await db.updateTable('member_jobs').set({ total }).where('id', '=', job.id).execute();
  return total;
}

export async function findJob(db: Executor, siteId: string, id: string): Promise<MemberJob | undefined> {
  const row = await db.selectFrom('member_jobs').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? toJob(row) : undefined;
}

export async function pendingJobItems(db: Executor, jobId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('member_job_items').select('member_id').where('job_id', '=', jobId).where('state', '=', 'PENDING')
    .orderBy('member_id').limit(limit).execute();
  return rows.map((r) => r.member_id);
}

/** Claims one item (PENDING -> DONE/FAILED); false when another worker got it first. */
export async function finishJobItem(db: Executor, jobId: string, memberId: string, error: JobItemError | undefined): Promise<boolean> {
  const result = await db.updateTable('member_job_items')
    .set({ state: error ? 'FAILED' : 'DONE', error: error ? toJson(error) : null })
    .where('job_id', '=', jobId).where('member_id', '=', memberId).where('state', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function recordJobProgress(db: Executor, job: MemberJob, now: string): Promise<void> {
  await db.updateTable('member_jobs').set({
    status: job.status, processed: job.processed, succeeded: job.succeeded, failed: job.failed,
    errors: toJson(job.errors), updated_date: now, finished_date: job.finishedDate ?? null,
  }).where('id', '=', job.id).execute();
}

// ---------------------------------------------------------------------------------------------
// Reports

/** The report's wire shape (`@vitrine/types/members`). */
export type { MemberReport, ReportStatus } from '@vitrine/types/members';

function toReport(row: MemberReportsTable): MemberReport {
  return {
    id: row.id,
    reporterId: row.reporter_id,
    memberId: row.member_id,
    // The column only holds reasons the request schema accepted.
    reason: row.reason as ReportReason,
    ...(row.details !== null ? { details: row.details } : {}),
    status: row.status as ReportStatus,
    ...(row.resolution ? { resolution: readJson<{ muted: boolean; note?: string }>(row.resolution) } : {}),
    createdDate: row.created_date,
    ...(row.resolved_date ? { resolvedDate: row.resolved_date } : {}),
  };
}

export async function insertReport(db: Executor, siteId: string, r: MemberReport): Promise<void> {
  await db.insertInto('member_reports').values({
    id: r.id, site_id: siteId, reporter_id: r.reporterId, member_id: r.memberId, reason: r.reason, details: r.details ?? null,
    status: r.status, resolution: null, created_date: r.createdDate, resolved_date: null,
  }).execute();
}

export async function findOpenReport(db: Executor, siteId: string, reporterId: string, memberId: string): Promise<MemberReport | undefined> {
  const row = await db.selectFrom('member_reports').selectAll().where('site_id', '=', siteId).where('reporter_id', '=', reporterId)
    .where('member_id', '=', memberId).where('status', '=', 'OPEN').executeTakeFirst();
  return row ? toReport(row) : undefined;
}

export async function findReport(db: Executor, siteId: string, id: string): Promise<MemberReport | undefined> {
  const row = await db.selectFrom('member_reports').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? toReport(row) : undefined;
}

/** OPEN -> RESOLVED; false when it was not open any more (a concurrent resolve). */
export async function resolveReportRow(db: Executor, siteId: string, id: string, resolution: { muted: boolean; note?: string }, now: string): Promise<boolean> {
  const result = await db.updateTable('member_reports').set({ status: 'RESOLVED', resolution: toJson(resolution), resolved_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', '=', 'OPEN').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listReportRows(db: Executor, siteId: string, q: { status?: ReportStatus | undefined; memberId?: string | undefined; limit: number; offset: number }): Promise<{ reports: MemberReport[]; total: number }> {
  let base = db.selectFrom('member_reports').where('site_id', '=', siteId);
  if (q.status) base = base.where('status', '=', q.status);
  if (q.memberId) base = base.where('member_id', '=', q.memberId);
  const rows = await base.selectAll().orderBy('created_date', 'desc').orderBy('id').limit(q.limit).offset(q.offset).execute();
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { reports: rows.map(toReport), total: Number(counted?.n ?? 0) };
}

export async function deleteReportsOf(db: Executor, siteId: string, memberId: string): Promise<void> {
  await db.deleteFrom('member_reports').where('site_id', '=', siteId)
    .where((eb) => eb.or([eb('member_id', '=', memberId), eb('reporter_id', '=', memberId)])).execute();
}

// ---------------------------------------------------------------------------------------------
// Member-about

/** Content was checked by validateRichContent before it was stored. */
export interface MemberAboutRecord { id: string; memberId: string; content: RichContent; revision: number; createdDate: string; updatedDate: string }

function toAbout(row: MemberAboutsTable): MemberAboutRecord {
  return { id: row.id, memberId: row.member_id, content: readJson<RichContent>(row.content), revision: row.revision, createdDate: row.created_date, updatedDate: row.updated_date };
}

export async function insertAbout(db: Executor, siteId: string, a: MemberAboutRecord): Promise<void> {
  await db.insertInto('member_abouts').values({
    id: a.id, site_id: siteId, member_id: a.memberId, content: toJson(a.content), revision: a.revision, created_date: a.createdDate, updated_date: a.updatedDate,
  }).execute();
}

export async function findAbout(db: Executor, siteId: string, id: string): Promise<MemberAboutRecord | undefined> {
  const row = await db.selectFrom('member_abouts').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? toAbout(row) : undefined;
}

export async function findAboutOfMember(db: Executor, siteId: string, memberId: string): Promise<MemberAboutRecord | undefined> {
  const row = await db.selectFrom('member_abouts').selectAll().where('site_id', '=', siteId).where('member_id', '=', memberId).executeTakeFirst();
  return row ? toAbout(row) : undefined;
}

/** Writes new content when the stored revision is still `expectedRevision`; false on a concurrent change. */
export async function updateAboutRow(db: Executor, siteId: string, id: string, content: unknown, expectedRevision: number, now: string): Promise<boolean> {
  const result = await db.updateTable('member_abouts').set({ content: toJson(content), revision: expectedRevision + 1, updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('revision', '=', expectedRevision).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteAboutRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('member_abouts').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Abouts of members visible to the caller, newest first, one page plus one to tell whether more exist. */
export async function listAboutRows(db: Executor, where: MemberWhere, limit: number, offset: number): Promise<MemberAboutRecord[]> {
  const rows = await sql<MemberAboutsTable>`SELECT a.* FROM member_abouts a JOIN members m ON m.id = a.member_id AND m.site_id = a.site_id
    WHERE a.site_id = ${where.siteId} AND ${memberWhere(where)} ORDER BY a.updated_date DESC, a.id ASC LIMIT ${limit} OFFSET ${offset}`.execute(db);
  return rows.rows.map(toAbout);
}

declare module '../../storage/schema.js' {
  interface Database {
    member_secrets: { name: string; value: string };
  }
}

/** A server secret of this domain (the cursor key), made by a migration. */
export async function findMemberSecret(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom('member_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
