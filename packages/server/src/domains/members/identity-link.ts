import type { RequestContext } from '../../http/context.js';
import { deleteIdentity, revokeMemberTokens, setIdentityStatus } from '../identity/index.js';

/**
 * The one place members tells identity about status changes, so login follows the member status.
 * Runs inside the caller's transaction (identity's functions join it). Members without an identity
 * (created by the owner API) are skipped by identity itself.
 * - APPROVED -> identity ACTIVE (owner approval given; a block is lifted);
 * - BLOCKED and OFFLINE -> identity BLOCKED (cannot log in; refresh tokens and sessions revoked);
 * - member deleted -> identity deleted (tokens and sessions revoked; the e-mail may register again).
 */
export type IdentityEffect = 'ACTIVE' | 'BLOCKED' | 'OFFLINE' | 'DELETED';

export async function applyIdentityEffect(ctx: RequestContext, memberId: string, effect: IdentityEffect): Promise<void> {
  switch (effect) {
    case 'ACTIVE': return setIdentityStatus(ctx, memberId, 'ACTIVE');
    case 'BLOCKED': case 'OFFLINE':
      await setIdentityStatus(ctx, memberId, 'BLOCKED');
      // Also when no identity exists (an owner-created member holding tokens): revoking twice is harmless.
      await revokeMemberTokens(ctx, ctx.site.id, memberId);
      return;
    case 'DELETED': return deleteIdentity(ctx, memberId);
  }
}
