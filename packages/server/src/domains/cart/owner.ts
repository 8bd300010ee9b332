/** Whose current cart or checkout: the caller's own ids, never an id from the request. */
import { ApplicationError } from '../../http/errors.js';
import type { Caller } from '../../http/context.js';
import type { BuyerRef } from './model.js';

export interface Owner { key: string; buyer: BuyerRef }

export function ownerOf(caller: Caller): Owner {
  switch (caller.kind) {
    case 'visitor': return { key: `v:${caller.visitorId}`, buyer: { visitorId: caller.visitorId } };
    case 'member': return { key: `m:${caller.memberId}`, buyer: { memberId: caller.memberId } };
    case 'owner': return { key: `u:${caller.apiKeyId}`, buyer: { userId: caller.apiKeyId } };
    case 'app': return { key: `a:${caller.appId}`, buyer: { userId: caller.appId } };
    default: throw new ApplicationError(401, 'UNAUTHENTICATED', 'A caller is required');
  }
}

export const visitorKey = (visitorId: string) => `v:${visitorId}`;
export const memberKey = (memberId: string) => `m:${memberId}`;
