/** Events and webhooks: what a subscribed endpoint receives. */
import type { IsoDate } from './common.js';

/** Who caused an event. */
export type EventActorType = 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP';

/** An event type filter of a subscription; `*` matches anything, `a.b.*` any fqdn under `a.b.`. */
export interface EventTypePattern { entityFqdn: string; slug: string }

/**
 * The JSON body every webhook delivery carries, signed in the `vitrine-signature` header. `entity` is
 * the entity's wire shape as the owner sees it (e.g. a catalog `ProductV1` with merchant data).
 */
export interface WebhookEnvelope {
  id: string;
  siteId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  entityEventSequence: number;
  eventTime: IsoDate;
  actor: { type: EventActorType | null; id: string | null };
  entity: unknown;
  data: Record<string, unknown>;
}
