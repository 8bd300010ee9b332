import type { BulkDeleteMembersResponse } from '@vitrine/types/members';
import { randomBytes, randomUUID } from 'node:crypto';
import { isElevated, memberIdOf, type RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, conflict, forbidden, notFound, ValidationError, violation } from '../../http/errors.js';
import { FilterError, parseFilter, parseSort, type FilterNode } from '../../storage/filter.js';
import { filterViolation } from '../../http/filter-errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/index.js';
import { applyIdentityEffect, type IdentityEffect } from './identity-link.js';
import { MEMBER_COUNT_CAP, MEMBER_LIMITS, MEMBER_PAGE_DEFAULT, SORT_FIELDS_MAX } from './limits.js';
import type { Member, MemberAddress, MemberContact, MemberProfile, MemberRole, MemberStatus } from './model.js';
import type { ContactInput, CreateMemberInput, ProfileInput, SearchInput, UpdateMemberInput } from './schema.js';
import { firstFreeSlug, SLUG_MAX_LENGTH, SLUG_PATTERN, slugBase } from './slug.js';
import {
  deleteMemberRow, deleteReportsOf, findMember, findMemberForUpdate, findMemberIdByLoginEmail, findMemberIdBySlug, findMemberStatus,
  insertMemberIfFree, isUniqueViolation, memberSortColumn, queryMemberRows, replaceMember, slugsStartingWith, type MemberWhere,
} from './store.js';
import { nextActivity, nextStatus, type ActivityAction, type StatusAction } from './transitions.js';
import { viewerOf, type MembersPage } from './view.js';

export type { Member, MemberStatus } from './model.js';

export const MEMBER_ENTITY_FQDN = 'wix.members.v1.member';

// ---------------------------------------------------------------------------------------------
// Errors and access

export const memberNotFound = (id: string) => notFound('MEMBER_NOT_FOUND', `Member ${id} not found`, { id });

/** Members other callers may see: public and able to appear on the site. */
function isListed(member: Member): boolean {
  return member.privacyStatus === 'PUBLIC' && (member.status === 'APPROVED' || member.status === 'OFFLINE');
}

export { viewerOf };

/** The member if the caller may see it at all; hidden members read as not found. */
async function visibleMember(ctx: RequestContext, id: string): Promise<Member> {
  const member = await findMember(ctx.db, ctx.site.id, id);
  if (!member || (viewerOf(ctx, id) === 'other' && !isListed(member))) throw memberNotFound(id);
  return member;
}

async function requireMember(ctx: RequestContext, id: string): Promise<Member> {
  const member = await findMember(ctx.db, ctx.site.id, id);
  if (!member) throw memberNotFound(id);
  return member;
}

function requireSelfId(ctx: RequestContext): string {
  const id = memberIdOf(ctx.caller);
  if (!id) throw forbidden('MEMBER_REQUIRED', 'This call needs a logged-in member');
  return id;
}

/**
 * The calling member, who must be APPROVED: an access token stays valid until it expires, so a member
 * blocked or disconnected meanwhile is refused here rather than by the token.
 */
async function activeSelf(ctx: RequestContext): Promise<Member> {
  const id = requireSelfId(ctx);
  const member = await requireMember(ctx, id);
  assertActive(member);
  return member;
}

function assertActive(member: Member): void {
  if (member.status !== 'APPROVED') {
    throw forbidden('MEMBER_NOT_ACTIVE', `This member cannot act while ${member.status}`);
  }
}

/** The calling member's id after the APPROVED check. */
async function activeSelfId(ctx: RequestContext): Promise<string> {
  return (await activeSelf(ctx)).id;
}

// ---------------------------------------------------------------------------------------------
// Slugs

/** A free slug derived from free text (nickname or e-mail local part). */
export async function freeSlugFor(ctx: RequestContext, source: string): Promise<string> {
  const base = slugBase(source);
  return firstFreeSlug(base, await slugsStartingWith(ctx.db, ctx.site.id, base));
}

/** Normalizes a requested slug; BAD_CODE when it is not slug-shaped (spec section 8 slug codes). */
function checkSlug(raw: string): string {
  const slug = raw.trim().toLowerCase();
  if (slug.length === 0 || slug.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) {
    throw badRequest('BAD_CODE', `Slug must be 1-${SLUG_MAX_LENGTH} lowercase letters and digits joined by single hyphens`, { slug: raw });
  }
  return slug;
}

async function assertSlugFree(ctx: RequestContext, slug: string, memberId: string): Promise<void> {
  const holder = await findMemberIdBySlug(ctx.db, ctx.site.id, slug);
  if (holder !== undefined && holder !== memberId) throw conflict('SLUG_ALREADY_EXISTS', `Slug "${slug}" is already taken`, { slug });
}

// ---------------------------------------------------------------------------------------------
// Writes shared by the calls below: one transaction, the event inside it

/** Most attempts at a free derived slug when concurrent inserts keep taking it. */
const SLUG_INSERT_ATTEMPTS = 5;

/**
 * Inserts a new member and records `created`. A derived slug that a concurrent insert took is retried
 * with a random suffix; an explicit slug or a taken e-mail / id is a 409 (the transaction stays usable).
 */
async function insertNewMember(ctx: RequestContext, member: Member, slugExplicit: boolean): Promise<Member> {
  let candidate = member;
  for (let attempt = 1; ; attempt++) {
    if (await insertMemberIfFree(ctx.db, ctx.site.id, candidate)) break;
    if (await findMember(ctx.db, ctx.site.id, candidate.id)) throw conflict('MEMBER_ALREADY_EXISTS', `Member ${candidate.id} already exists`, { id: candidate.id });
    if (await findMemberIdByLoginEmail(ctx.db, ctx.site.id, candidate.loginEmail)) {
      throw conflict('EMAIL_ALREADY_EXISTS', 'A member with this login e-mail already exists', { loginEmail: candidate.loginEmail });
    }
    if (slugExplicit || attempt >= SLUG_INSERT_ATTEMPTS) {
      throw conflict('SLUG_ALREADY_EXISTS', `Slug "${candidate.profile.slug}" is already taken`, { slug: candidate.profile.slug });
    }
    const base = member.profile.slug.slice(0, SLUG_MAX_LENGTH - 9);
    candidate = { ...member, profile: { ...member.profile, slug: `${base}-${randomBytes(4).toString('hex')}` } };
  }
  await recordEvent(ctx, { entityFqdn: MEMBER_ENTITY_FQDN, slug: 'created', entityId: candidate.id, entity: candidate });
  return candidate;
}

/** Saves a changed member and records `updated`; a slug taken meanwhile by another member is a 409. */
async function saveMember(ctx: RequestContext, member: Member, data?: Record<string, unknown>): Promise<void> {
  try {
    await replaceMember(ctx.db, ctx.site.id, member);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('SLUG_ALREADY_EXISTS', `Slug "${member.profile.slug}" is already taken`, { slug: member.profile.slug });
    throw error;
  }
  await recordEvent(ctx, { entityFqdn: MEMBER_ENTITY_FQDN, slug: 'updated', entityId: member.id, entity: member, ...(data ? { data } : {}) });
}

/** Loads, changes and saves a member in one transaction; `change` returns the new member. */
async function changeMember(
  ctx: RequestContext,
  id: string,
  change: (member: Member, trxCtx: RequestContext) => Promise<Member> | Member,
  data?: Record<string, unknown>,
): Promise<Member> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const current = await findMemberForUpdate(trx, ctx.site.id, id, ctx.dialect);
    if (!current) throw memberNotFound(id);
    const next = await change(current, tctx);
    const updated = { ...next, updatedDate: new Date().toISOString() };
    await saveMember(tctx, updated, data);
    return updated;
  });
}

// ---------------------------------------------------------------------------------------------
// Identity-facing functions (called by domains/identity inside its own transactions)

/**
 * Called by identity when an identity registers: creates its member (same id) inside the caller's
 * transaction (`ctx.db`) and records `member created` there too.
 */
export async function createMemberFromIdentity(
  ctx: RequestContext,
  input: { id: string; loginEmail: string; status: 'PENDING' | 'APPROVED'; profile?: { nickname?: string; firstName?: string; lastName?: string } },
): Promise<void> {
  const now = new Date().toISOString();
  const loginEmail = input.loginEmail.trim().toLowerCase();
  // Identity validates its own profile; clip to our bounds rather than fail a registration.
  const clip = (text: string | undefined, max: number) => text?.trim().slice(0, max) || undefined;
  const nickname = clip(input.profile?.nickname, MEMBER_LIMITS.nickname);
  const firstName = clip(input.profile?.firstName, MEMBER_LIMITS.name);
  const lastName = clip(input.profile?.lastName, MEMBER_LIMITS.name);
  const slug = await freeSlugFor(ctx, nickname ?? loginEmail.split('@')[0] ?? '');
  const member: Member = {
    id: input.id,
    loginEmail,
    loginEmailVerified: false,
    status: input.status,
    contactId: randomUUID(),
    contact: {
      ...(firstName ? { firstName } : {}),
      ...(lastName ? { lastName } : {}),
      emails: [loginEmail],
    },
    profile: { ...(nickname ? { nickname } : {}), slug },
    privacyStatus: 'PRIVATE',
    activityStatus: 'ACTIVE',
    roles: ['MEMBER'],
    createdDate: now,
    updatedDate: now,
  };
  await insertNewMember(ctx, member, false);
}

/** The member's status, or undefined when no member has this id on the site. */
export async function getMemberStatus(ctx: RequestContext, id: string): Promise<MemberStatus | undefined> {
  return findMemberStatus(ctx.db, ctx.site.id, id);
}

/** What identity needs of a member to let its holder claim it: a member the owner created has no identity until then. */
export interface MemberLogin { id: string; loginEmail: string; status: MemberStatus }

/** The member with this login e-mail (normalized as stored: lower case), if any. */
export async function memberLoginByEmail(ctx: RequestContext, loginEmail: string): Promise<MemberLogin | undefined> {
  const id = await findMemberIdByLoginEmail(ctx.db, ctx.site.id, loginEmail);
  return id === undefined ? undefined : memberLoginById(ctx, id);
}

export async function memberLoginById(ctx: RequestContext, id: string): Promise<MemberLogin | undefined> {
  const member = await findMember(ctx.db, ctx.site.id, id);
  return member && { id: member.id, loginEmail: member.loginEmail, status: member.status };
}

/** Identity reports a successful login (sets lastLoginDate; no event, it is not a profile change). */
export async function recordMemberLogin(ctx: RequestContext, id: string, verifiedEmail?: boolean): Promise<void> {
  const member = await findMember(ctx.db, ctx.site.id, id);
  if (!member) return;
  await replaceMember(ctx.db, ctx.site.id, { ...member, lastLoginDate: new Date().toISOString(), ...(verifiedEmail ? { loginEmailVerified: true } : {}) });
}

/** Sets the roles of a member (seeding and CLI; no route: roles are not writable over the API). */
export async function setMemberRoles(ctx: RequestContext, id: string, roles: MemberRole[]): Promise<Member> {
  return changeMember(ctx, id, (m) => ({ ...m, roles: [...new Set(roles)] }));
}

// ---------------------------------------------------------------------------------------------
// Reads

/** A member the caller may see at all (routes present it in the fieldsets asked for: view.ts). */
export async function getMember(ctx: RequestContext, id: string): Promise<Member> {
  return visibleMember(ctx, id);
}

export async function getMyMember(ctx: RequestContext): Promise<Member> {
  return activeSelf(ctx);
}

export interface MemberQueryInput {
  filter?: Record<string, unknown> | null | undefined;
  sorting?: { fieldName: string; order?: 'ASC' | 'DESC' | undefined }[] | undefined;
  paging?: { limit?: number | null | undefined; offset?: number | null | undefined } | undefined;
  search?: SearchInput;
}

/** Runs `fn`, turning a refused filter or sort into a field violation under `argument` (none: top level). */
async function withFilter<T>(argument: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    // The shared parser names sort problems `sort[i]`; members calls name the argument `sorting`.
    const v = filterViolation(error, 'x').violations[0]!;
    const path = v.field.slice(2).replace(/^sort\b/, 'sorting');
    throw new ValidationError([{ ...v, field: argument ? `${argument}.${path}` : path }]);
  }
}

function searchClause(ctx: RequestContext, search: SearchInput, argument: string): MemberWhere['search'] {
  if (!search?.expression) return undefined;
  const fields = search.fields && search.fields.length > 0 ? [...new Set(search.fields)] : ['profile.nickname'];
  if (!isElevated(ctx.caller)) {
    const hidden = fields.find((f) => f === 'loginEmail' || f.startsWith('contact.'));
    if (hidden) throw violation(`${argument}.fields`, `"${hidden}" can only be searched by the site owner`, 'FIELD_NOT_ALLOWED', { field: hidden });
  }
  return { expression: search.expression, fields };
}

function whereFor(ctx: RequestContext, filter: FilterNode | undefined, search: MemberWhere['search']): MemberWhere {
  return { siteId: ctx.site.id, filter, elevated: isElevated(ctx.caller), selfId: memberIdOf(ctx.caller), search, dialect: ctx.dialect };
}

/** `argument` names where filter and sorting sit in the request: `query` for queryMembers, '' for listMembers. */
export async function queryMembers(ctx: RequestContext, input: MemberQueryInput, argument: 'query' | '' = 'query'): Promise<MembersPage> {
  const limit = input.paging?.limit ?? MEMBER_PAGE_DEFAULT;
  const offset = input.paging?.offset ?? 0;
  const elevated = isElevated(ctx.caller);
  const search = searchClause(ctx, input.search, 'search');
  const result = await withFilter(argument || undefined, async () => queryMemberRows(ctx.db, {
    ...whereFor(ctx, parseFilter(input.filter ?? undefined), search),
    sort: parseSort(input.sorting, memberSortColumn(elevated), SORT_FIELDS_MAX),
    limit,
    offset,
    countCap: MEMBER_COUNT_CAP,
  }));
  return {
    members: result.members,
    metadata: { count: result.members.length, offset, total: result.total, tooManyToCount: result.tooManyToCount },
  };
}

export async function listMembers(ctx: RequestContext, input: Omit<MemberQueryInput, 'filter' | 'search'>) {
  return queryMembers(ctx, input, '');
}

// ---------------------------------------------------------------------------------------------
// Create and update

function cleanContact(current: MemberContact, input: ContactInput | undefined): MemberContact {
  if (!input) return current;
  const out: MemberContact = { ...current };
  const set = <K extends keyof MemberContact>(key: K, value: MemberContact[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete out[key];
    else out[key] = value;
  };
  set('firstName', input.firstName);
  set('lastName', input.lastName);
  set('phones', input.phones);
  set('emails', input.emails === null ? null : input.emails?.map((e) => e.toLowerCase()));
  set('birthdate', input.birthdate);
  set('company', input.company);
  set('jobTitle', input.jobTitle);
  if (input.addresses !== undefined) {
    set('addresses', input.addresses === null ? null : input.addresses.map((a): MemberAddress => {
      const address: MemberAddress = { id: a.id ?? randomUUID() };
      if (a.streetAddress) address.streetAddress = a.streetAddress;
      for (const key of ['addressLine', 'addressLine2', 'city', 'subdivision', 'country', 'postalCode'] as const) {
        const value = a[key];
        if (value !== undefined && value !== null) address[key] = value;
      }
      return address;
    }));
  }
  if (input.customFields !== undefined) {
    // Provided keys replace their field; a null value removes it; other keys stay.
    if (input.customFields === null) delete out.customFields;
    else {
      const fields = { ...(current.customFields ?? {}) };
      for (const [key, f] of Object.entries(input.customFields)) {
        if (f.value === null) delete fields[key];
        else {
          fields[key] = {
            ...(f.name ? { name: f.name } : {}),
            ...(f.value !== undefined ? { value: f.value } : {}),
            type: f.type ?? (typeof f.value === 'number' ? 'NUMBER' : 'TEXT'),
            ...(f.socialNetwork ? { socialNetwork: f.socialNetwork } : {}),
          };
        }
      }
      if (Object.keys(fields).length > MEMBER_LIMITS.customFields) {
        throw violation('member.contact.customFields', `takes at most ${MEMBER_LIMITS.customFields} fields`, 'MAX_SIZE', { max: MEMBER_LIMITS.customFields });
      }
      out.customFields = fields;
    }
  }
  return out;
}

function cleanProfile(current: Member['profile'], input: ProfileInput | undefined): Member['profile'] {
  if (!input) return current;
  const out: Member['profile'] = { ...current };
  for (const key of ['nickname', 'title', 'photo', 'cover'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else (out as MemberProfile)[key] = value as never;
  }
  return out;
}

export async function createMember(ctx: RequestContext, input: CreateMemberInput): Promise<Member> {
  const loginEmail = input.loginEmail.trim().toLowerCase();
  const member = await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    if (await findMemberIdByLoginEmail(trx, ctx.site.id, loginEmail)) {
      throw conflict('EMAIL_ALREADY_EXISTS', 'A member with this login e-mail already exists', { loginEmail });
    }
    const id = randomUUID();
    let slug: string;
    if (input.profile?.slug !== undefined) {
      slug = checkSlug(input.profile.slug);
      await assertSlugFree(tctx, slug, id);
    } else {
      slug = await freeSlugFor(tctx, input.profile?.nickname ?? loginEmail.split('@')[0] ?? '');
    }
    const now = new Date().toISOString();
    const contact = cleanContact({}, input.contact);
    if (!contact.emails || contact.emails.length === 0) contact.emails = [loginEmail];
    const created: Member = {
      id,
      loginEmail,
      loginEmailVerified: false,
      status: input.status ?? 'APPROVED',
      contactId: randomUUID(),
      contact,
      profile: cleanProfile({ slug }, input.profile),
      privacyStatus: input.privacyStatus ?? 'PRIVATE',
      activityStatus: 'ACTIVE',
      roles: ['MEMBER'],
      createdDate: now,
      updatedDate: now,
    };
    return insertNewMember(tctx, created, input.profile?.slug !== undefined);
  });
  return member;
}

/** Owner: any member; a member: only themselves (others read as not found or forbidden). */
async function assertMayChange(ctx: RequestContext, id: string): Promise<void> {
  const viewer = viewerOf(ctx, id);
  if (viewer === 'elevated') return;
  if (viewer === 'self') {
    await activeSelf(ctx);
    return;
  }
  await visibleMember(ctx, id);
  throw forbidden('MEMBER_FORBIDDEN', 'A member can only change their own member');
}

export async function updateMember(ctx: RequestContext, memberId: string, input: UpdateMemberInput): Promise<Member> {
  if (input.id !== undefined && input.id !== memberId) throw violation('member.id', 'must match the member id of the path', 'FORMAT');
  await assertMayChange(ctx, memberId);
  const member = await changeMember(ctx, memberId, async (current, tctx) => {
    if (input.loginEmail !== undefined && input.loginEmail.trim().toLowerCase() !== current.loginEmail) {
      throw violation('member.loginEmail', 'cannot be changed', 'FIELD_NOT_ALLOWED');
    }
    const profile = cleanProfile(current.profile, input.profile);
    if (input.profile?.slug !== undefined) {
      profile.slug = checkSlug(input.profile.slug);
      await assertSlugFree(tctx, profile.slug, memberId);
    }
    return {
      ...current,
      contact: cleanContact(current.contact, input.contact),
      profile,
      privacyStatus: input.privacyStatus ?? current.privacyStatus,
    };
  });
  return member;
}

async function setSlug(ctx: RequestContext, id: string, raw: string): Promise<Member> {
  const slug = checkSlug(raw);
  const member = await changeMember(ctx, id, async (current, tctx) => {
    await assertSlugFree(tctx, slug, id);
    return { ...current, profile: { ...current.profile, slug } };
  });
  return member;
}

export async function updateMySlug(ctx: RequestContext, slug: string) {
  return setSlug(ctx, await activeSelfId(ctx), slug);
}

export async function updateMemberSlug(ctx: RequestContext, id: string, slug: string) {
  return setSlug(ctx, id, slug);
}

/** Join (PUBLIC) and leave (PRIVATE) are idempotent: asking again changes nothing and records no event. */
async function setPrivacy(ctx: RequestContext, privacyStatus: 'PUBLIC' | 'PRIVATE'): Promise<Member> {
  const current = await activeSelf(ctx);
  const id = current.id;
  if (current.privacyStatus === privacyStatus) return current;
  const member = await changeMember(ctx, id, (m) => ({ ...m, privacyStatus }), { action: privacyStatus === 'PUBLIC' ? 'joinedCommunity' : 'leftCommunity' });
  return member;
}

export const joinCommunity = (ctx: RequestContext) => setPrivacy(ctx, 'PUBLIC');
export const leaveCommunity = (ctx: RequestContext) => setPrivacy(ctx, 'PRIVATE');

// ---------------------------------------------------------------------------------------------
// Status and activity (owner)

const IDENTITY_EFFECT: Record<MemberStatus, IdentityEffect | undefined> = {
  APPROVED: 'ACTIVE', BLOCKED: 'BLOCKED', OFFLINE: 'OFFLINE', PENDING: undefined, UNKNOWN: undefined,
};

/** Applies a status action to a member inside `ctx.db` (a transaction); used by single calls and jobs. */
export async function applyStatusAction(ctx: RequestContext, id: string, action: StatusAction): Promise<Member> {
  return changeMember(ctx, id, async (current, tctx) => {
    if (action === 'block' && current.roles.includes('OWNER')) {
      throw forbidden('OWNER_MEMBER_BLOCK_FORBIDDEN', 'The site owner\'s member cannot be blocked');
    }
    const status = nextStatus(action, current.status);
    const effect = IDENTITY_EFFECT[status];
    if (effect) await applyIdentityEffect(tctx, id, effect);
    return { ...current, status };
  }, { action });
}

export async function changeStatus(ctx: RequestContext, id: string, action: StatusAction): Promise<Member> {
  return applyStatusAction(ctx, id, action);
}

export async function changeActivity(ctx: RequestContext, id: string, action: ActivityAction): Promise<Member> {
  const member = await changeMember(ctx, id, (m) => ({ ...m, activityStatus: nextActivity(action, m.activityStatus) }), { action });
  return member;
}

// ---------------------------------------------------------------------------------------------
// Contact details removal (owner)

export async function deleteContactList(ctx: RequestContext, id: string, list: 'phones' | 'emails' | 'addresses'): Promise<Member> {
  const member = await changeMember(ctx, id, (m) => {
    const contact = { ...m.contact };
    delete contact[list];
    return { ...m, contact };
  });
  return member;
}

// ---------------------------------------------------------------------------------------------
// Delete

/**
 * Deletes a member inside `ctx.db` (a transaction): owner and contributor members are protected;
 * `contentAssigneeId` (another existing member) is recorded on the deleted event for content owners.
 */
export async function deleteMemberWithin(ctx: RequestContext, id: string, contentAssigneeId?: string | null): Promise<void> {
  const member = await requireMember(ctx, id);
  if (member.roles.includes('OWNER') || member.roles.includes('CONTRIBUTOR')) {
    throw forbidden('OWNER_OR_CONTRIBUTOR_DELETE_FORBIDDEN', 'Owner and contributor members cannot be deleted');
  }
  if (contentAssigneeId) {
    if (contentAssigneeId === id) throw badRequest('INVALID_CONTENT_ASSIGNEE', 'The content assignee must be another member', { contentAssigneeId });
    if (!(await findMember(ctx.db, ctx.site.id, contentAssigneeId))) {
      throw badRequest('INVALID_CONTENT_ASSIGNEE', `Content assignee ${contentAssigneeId} is not a member`, { contentAssigneeId });
    }
  }
  await applyIdentityEffect(ctx, id, 'DELETED');
  await deleteReportsOf(ctx.db, ctx.site.id, id);
  await deleteMemberRow(ctx.db, ctx.site.id, id);
  await recordEvent(ctx, {
    entityFqdn: MEMBER_ENTITY_FQDN,
    slug: 'deleted',
    entityId: id,
    entity: member,
    data: contentAssigneeId ? { contentReassignmentRequested: { contentAssigneeId } } : { contentDeletionRequested: true },
  });
}

export async function deleteMember(ctx: RequestContext, id: string, contentAssigneeId?: string): Promise<Record<string, never>> {
  await inTransaction(ctx.db, (trx) => deleteMemberWithin({ ...ctx, db: trx }, id, contentAssigneeId));
  return {};
}

export async function deleteMyMember(ctx: RequestContext, contentAssigneeId?: string): Promise<Record<string, never>> {
  return deleteMember(ctx, await activeSelfId(ctx), contentAssigneeId);
}

export interface BulkItemResult {
  itemMetadata: { id: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } };
}

/** Each id in its own transaction: one failure (not found, protected) does not undo the others. */
/** Per-id results are the wire shape itself (nothing to encode). */
export async function bulkDeleteMembers(ctx: RequestContext, memberIds: string[]): Promise<BulkDeleteMembersResponse> {
  const results: BulkItemResult[] = [];
  for (const [originalIndex, id] of memberIds.entries()) {
    try {
      await inTransaction(ctx.db, (trx) => deleteMemberWithin({ ...ctx, db: trx }, id));
      results.push({ itemMetadata: { id, originalIndex, success: true } });
    } catch (error) {
      if (!(error instanceof ApplicationError)) throw error;
      results.push({ itemMetadata: { id, originalIndex, success: false, error: { code: error.code, description: error.description, data: error.data } } });
    }
  }
  const totalSuccesses = results.filter((r) => r.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
}

// ---------------------------------------------------------------------------------------------
// Helpers for other member modules (jobs, reports, abouts)

export { parseFilter, searchClause, visibleMember, whereFor, withFilter, requireMember, requireSelfId, activeSelfId, isListed };
