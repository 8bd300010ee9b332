import { randomUUID } from 'node:crypto';
import { actorType, type RequestContext } from '../../http/context.js';
import { insertOutboxEvent } from './store.js';

/** An entity change as other domains report it; `slug` is `created`, `updated`, `deleted` or a domain action. */
export interface DomainEvent {
  /** e.g. `wix.stores.catalog.v1.product` */
  entityFqdn: string;
  slug: string;
  entityId: string;
  /** The entity after the change (before it, for `deleted`). */
  entity?: unknown;
  data?: Record<string, unknown>;
}

/**
 * Writes an event to the outbox. Call it with the context of the transaction that makes the change,
 * so the event exists exactly when the change committed.
 */
export async function recordEvent(ctx: RequestContext, event: DomainEvent): Promise<void> {
  const caller = ctx.caller;
  const actorId = caller.kind === 'member' ? caller.memberId
    : caller.kind === 'visitor' ? caller.visitorId
      : caller.kind === 'owner' ? caller.apiKeyId
        : caller.kind === 'app' ? caller.appId : undefined;
  await insertOutboxEvent(ctx.db, {
    id: randomUUID(),
    siteId: ctx.site.id,
    entityFqdn: event.entityFqdn,
    slug: event.slug,
    entityId: event.entityId,
    actorType: actorType(caller),
    actorId,
    payload: { entity: event.entity ?? null, data: event.data ?? {} },
    createdDate: new Date().toISOString(),
  });
}
