import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { recordEvent } from '../events/service.js';
import type { Member, MemberStatus } from './model.js';
import { findMemberStatus, insertMember, slugsStartingWith } from './store.js';
import { firstFreeSlug, slugBase } from './slug.js';

export type { Member, MemberStatus } from './model.js';

export const MEMBER_ENTITY_FQDN = 'wix.members.v1.member';

/** A free slug derived from the nickname, else the e-mail's local part. */
export async function freeSlugFor(ctx: RequestContext, source: string): Promise<string> {
  const base = slugBase(source);
  return firstFreeSlug(base, await slugsStartingWith(ctx.db, ctx.site.id, base));
}

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
  const nickname = input.profile?.nickname?.trim() || undefined;
  const slug = await freeSlugFor(ctx, nickname ?? loginEmail.split('@')[0] ?? '');
  const member: Member = {
    id: input.id,
    loginEmail,
    loginEmailVerified: false,
    status: input.status,
    contactId: randomUUID(),
    contact: {
      ...(input.profile?.firstName ? { firstName: input.profile.firstName } : {}),
      ...(input.profile?.lastName ? { lastName: input.profile.lastName } : {}),
      emails: [loginEmail],
    },
    profile: { ...(nickname ? { nickname } : {}), slug },
    privacyStatus: 'PRIVATE',
    activityStatus: 'ACTIVE',
    roles: ['MEMBER'],
    createdDate: now,
    updatedDate: now,
  };
  await insertMember(ctx.db, ctx.site.id, member);
  await recordEvent(ctx, { entityFqdn: MEMBER_ENTITY_FQDN, slug: 'created', entityId: member.id, entity: member });
}

/** The member's status, or undefined when no member has this id on the site. */
export async function getMemberStatus(ctx: RequestContext, id: string): Promise<MemberStatus | undefined> {
  return findMemberStatus(ctx.db, ctx.site.id, id);
}
