import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { readJson, toJson } from '../../storage/dialect.js';
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
  }
}

/** What `doc` holds: contact and profile without the columns. */
interface MemberDoc {
  contactId: string;
  contact: Omit<MemberContact, 'firstName' | 'lastName'>;
  profile: Omit<MemberProfile, 'nickname' | 'slug'>;
}

function memberRow(siteId: string, m: Member): MembersTable {
  const { firstName, lastName, ...contact } = m.contact;
  const { nickname, slug: _slug, ...profile } = m.profile;
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
  const profile = { ...(row.nickname !== null ? { nickname: row.nickname } : {}), slug: row.slug, ...doc.profile };
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

export async function insertMember(db: Executor, siteId: string, member: Member): Promise<void> {
  await db.insertInto('members').values(memberRow(siteId, member)).execute();
}

/** Rewrites every column of a member (the service computes the whole new member). */
export async function replaceMember(db: Executor, siteId: string, member: Member): Promise<void> {
  const { id: _id, site_id: _site, created_date: _c, ...rest } = memberRow(siteId, member);
  await db.updateTable('members').set(rest).where('site_id', '=', siteId).where('id', '=', member.id).execute();
}

export async function findMember(db: Executor, siteId: string, id: string): Promise<Member | undefined> {
  const row = await db.selectFrom('members').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
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
  return Number(result.numDeletedRows) > 0;
}
