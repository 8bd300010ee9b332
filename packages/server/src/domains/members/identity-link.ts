import type { RequestContext } from '../../http/context.js';
import { revokeMemberTokens } from '../identity/service.js';

/**
 * The one place members tells identity about status changes, so login follows the member status:
 * block and delete revoke every refresh token of the member; disconnect too (an OFFLINE member cannot
 * log in). Runs inside the caller's transaction.
 */
export type IdentityEffect = 'ACTIVE' | 'BLOCKED' | 'OFFLINE' | 'DELETED';

export async function applyIdentityEffect(ctx: RequestContext, memberId: string, effect: IdentityEffect): Promise<void> {
  if (effect === 'ACTIVE') return;
  await revokeMemberTokens(ctx, ctx.site.id, memberId);
}
