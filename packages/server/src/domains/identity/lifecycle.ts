import type { RequestContext } from '../../http/context.js';
import { inTransaction } from '../../storage/transaction.js';
import { REASON_APPROVAL, statusFromReasons } from './identities.js';
import { revokeMemberTokens } from './service.js';
import { deleteIdentityRow, findIdentity, revokeIdentitySessions, updateIdentityRow } from './store.js';

// Status changes the members domain asks for (members/identity-link.ts); nothing here calls back into members.

/** Blocks, re-activates (owner approval) or deletes an identity; BLOCKED and DELETED revoke every token. */
export async function setIdentityStatus(ctx: RequestContext, identityId: string, status: 'BLOCKED' | 'ACTIVE' | 'DELETED'): Promise<void> {
  const identity = await findIdentity(ctx.db, ctx.site.id, identityId);
  if (!identity) return;
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    if (status === 'ACTIVE') {
      const reasons = identity.statusReasons.filter((r) => r !== REASON_APPROVAL);
      await updateIdentityRow(trx, ctx.site.id, identityId, { status: statusFromReasons(reasons), statusReasons: reasons }, now);
      return;
    }
    await updateIdentityRow(trx, ctx.site.id, identityId, { status }, now);
    await revokeMemberTokens({ ...ctx, db: trx }, ctx.site.id, identityId);
    await revokeIdentitySessions(trx, ctx.site.id, identityId, now);
  });
}

/** Removes an identity for good (its e-mail can register again); tokens and sessions are revoked first. */
export async function deleteIdentity(ctx: RequestContext, identityId: string): Promise<void> {
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    await revokeMemberTokens({ ...ctx, db: trx }, ctx.site.id, identityId);
    await revokeIdentitySessions(trx, ctx.site.id, identityId, now);
    await deleteIdentityRow(trx, ctx.site.id, identityId);
  });
}
