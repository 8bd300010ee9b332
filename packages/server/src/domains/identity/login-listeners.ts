import type { RequestContext } from '../../http/context.js';

/**
 * Listeners told when a visitor logs in as a member (direct login or registration with the visitor's
 * token): the cart domain moves the visitor's cart to the member. Identity cannot import the domains
 * that care, so they register here.
 */
export type VisitorLoginListener = (ctx: RequestContext, login: { visitorId: string; memberId: string }) => Promise<void>;
const listeners: VisitorLoginListener[] = [];

export function onVisitorLogin(listener: VisitorLoginListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

export async function notifyVisitorLogin(ctx: RequestContext, login: { visitorId: string; memberId: string }): Promise<void> {
  for (const l of listeners) await l(ctx, login);
}
