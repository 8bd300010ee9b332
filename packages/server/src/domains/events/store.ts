import type { Executor } from '../../storage/database.js';
import { toJson } from '../../storage/dialect.js';

interface OutboxEventsTable {
  id: string;
  site_id: string;
  entity_fqdn: string;
  slug: string;
  entity_id: string;
  actor_type: string | null;
  actor_id: string | null;
  payload: unknown;
  created_date: string;
}

declare module '../../storage/schema.js' {
  interface Database {
    outbox_events: OutboxEventsTable;
  }
}

export interface NewOutboxEvent {
  id: string;
  siteId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  actorType: string | undefined;
  actorId: string | undefined;
  payload: unknown;
  createdDate: string;
}

export async function insertOutboxEvent(db: Executor, event: NewOutboxEvent): Promise<void> {
  await db.insertInto('outbox_events').values({
    id: event.id,
    site_id: event.siteId,
    entity_fqdn: event.entityFqdn,
    slug: event.slug,
    entity_id: event.entityId,
    actor_type: event.actorType ?? null,
    actor_id: event.actorId ?? null,
    payload: toJson(event.payload),
    created_date: event.createdDate,
  }).execute();
}
