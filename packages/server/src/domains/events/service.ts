import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { actorType, type RequestContext } from '../../http/context.js';
import { conflict, notFound, violation } from '../../http/errors.js';
import { afterCommit, beforeCommit, inTransaction } from '../../storage/transaction.js';
import { toJson } from '../../storage/dialect.js';
import type { Executor } from '../../storage/database.js';
import { webhookUrlProblem } from './target.js';
import { eventMayMail } from './mail-templates.js';
import { matchesAny, type EventTypePattern } from './model.js';
import { kickLocalFanOut } from './jobs.js';
import {
  activeEventTypesOfSite, countSubscriptions, deleteSubscriptionRow, findDelivery, findSubscription, insertDeliveries, insertOutboxEvents,
  insertSubscription, listAttempts, listDeliveries, listMails, listMailsTo, listSubscriptions, reserveEntitySequences, updateSubscriptionRow, entityKey, type NewOutboxEvent, type SequenceClaim,
  type AttemptRow, type DeliveryRow, type MailRow, type SubscriptionRecord,
} from './store.js';
import {
  LOG_PAGE_DEFAULT, MAX_SUBSCRIPTIONS_PER_SITE, type createSubscriptionRequest, type listDeliveriesRequest, type listMailsRequest,
  type updateSubscriptionRequest,
} from './schema.js';
import type { RowsPage } from './present.js';

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
 * Writes an event to the outbox when someone can receive it (receivedEvents). Call it with the
 * context of the transaction that makes the change, so the event exists exactly when the change
 * committed. It takes the next sequence number of the entity (a per-entity counter row, locked until
 * the transaction ends), so events of one entity are numbered 1, 2, 3... in commit order even with
 * concurrent writers on PostgreSQL. A transaction that records events for several entities should
 * record them in a stable order (e.g. by id) to avoid lock-order deadlocks.
 */
export async function recordEvent(ctx: RequestContext, event: DomainEvent): Promise<void> {
  await recordEvents(ctx, [event]);
}

/**
 * `recordEvent` for many changes at once (bulk calls): the same rows, written with a few multi-row
 * statements instead of two statements per event. Events of one entity keep their order in the list.
 *
 * Inside a transaction opened by inTransaction the rows are written once, right before it commits,
 * together with every other event the transaction records (beforeCommit): placing and paying an order
 * records events in several steps, and each step used to cost a sequence upsert and an outbox insert.
 * The entity is serialized now, so what the event says is the entity as it was at this call.
 */
export async function recordEvents(ctx: RequestContext, recorded: DomainEvent[]): Promise<void> {
  const events = ctx.deps.config.events.record === 'all' ? recorded : await receivedEvents(ctx, recorded);
  if (events.length === 0) return;
  const caller = ctx.caller;
  const actorId = caller.kind === 'member' ? caller.memberId
    : caller.kind === 'visitor' ? caller.visitorId
      : caller.kind === 'owner' ? caller.apiKeyId
        : caller.kind === 'app' ? caller.appId : undefined;
  const createdDate = new Date().toISOString();
  const rows: UnnumberedEvent[] = events.map((event) => ({
    id: randomUUID(),
    siteId: ctx.site.id,
    entityFqdn: event.entityFqdn,
    slug: event.slug,
    entityId: event.entityId,
    actorType: actorType(caller),
    actorId,
    payloadJson: toJson({ entity: event.entity ?? null, data: event.data ?? {} }),
    createdDate,
  }));
  const queued = pendingEvents.get(ctx.db);
  if (queued) {
    queued.push(...rows);
    return;
  }
  const fresh = [...rows];
  if (beforeCommit(ctx.db, (trx) => writeEvents(ctx, trx, fresh))) {
    pendingEvents.set(ctx.db, fresh);
    return;
  }
  // Both steps or neither, also for a caller outside a transaction.
  await inTransaction(ctx.db, (db) => writeEvents(ctx, db, rows));
}

/**
 * The events someone can receive: a mail template's event types, and those an active webhook
 * subscription of the site matches. The others would be written, fanned out to nobody and pruned; for
 * a cart write that outbox row (the whole cart) was most of the commit.
 */
/**
 * Whether `recordEvent` would write an event of this kind now. A write whose only other statement is
 * its own row may then run as that one statement instead of a transaction (the current cart's writes:
 * begin and commit were two of an add-to-cart's four statements, two more round trips on PostgreSQL).
 */
export async function eventIsRecorded(ctx: RequestContext, entityFqdn: string, slug: string): Promise<boolean> {
  if (ctx.deps.config.events.record === 'all' || eventMayMail(entityFqdn, slug)) return true;
  const subscribed = await subscribedEventTypes(ctx.db, ctx.site.id);
  return subscribed.some((patterns) => matchesAny(patterns, entityFqdn, slug));
}

async function receivedEvents(ctx: RequestContext, events: DomainEvent[]): Promise<DomainEvent[]> {
  if (events.every((e) => eventMayMail(e.entityFqdn, e.slug))) return events;
  const subscribed = await subscribedEventTypes(ctx.db, ctx.site.id);
  return events.filter((e) => eventMayMail(e.entityFqdn, e.slug) || subscribed.some((patterns) => matchesAny(patterns, e.entityFqdn, e.slug)));
}

/**
 * How long a process keeps a site's subscribed event types, as sites are kept (SITE_CACHE_MS): a
 * subscription created or widened through this process counts from its commit on; through another
 * process, within this time. Fewer receivers than cached (a deletion) cost only unneeded rows: the
 * fan-out matches the subscriptions active when it runs.
 */
export const SUBSCRIBED_TYPES_CACHE_MS = 5_000;
const subscribedTypes = new Map<string, { read: Promise<EventTypePattern[][]>; at: number; settled: boolean }>();

/**
 * Read in the caller's transaction when it has one (on SQLite the root executor waits for it to end).
 * Callers share a read still under way, except a caller inside a transaction: a read on the root
 * executor waits for a free connection, and a transaction holds one, so transactions awaiting such
 * a read while they held every connection of the pool (or SQLite's one) would wait for ever. Such a
 * caller reads on its own connection instead.
 */
function subscribedEventTypes(db: Executor, siteId: string): Promise<EventTypePattern[][]> {
  const now = Date.now();
  const hit = subscribedTypes.get(siteId);
  if (hit && now - hit.at < SUBSCRIBED_TYPES_CACHE_MS && (hit.settled || !db.isTransaction)) return hit.read;
  const entry = { read: activeEventTypesOfSite(db, siteId), at: now, settled: false };
  subscribedTypes.set(siteId, entry);
  entry.read.then(() => { entry.settled = true; }, () => {
    if (subscribedTypes.get(siteId) === entry) subscribedTypes.delete(siteId);
  });
  return entry.read;
}

/** After a subscription change commits, this process reads the site's subscriptions again. */
async function forgetSubscribedTypesAfterCommit(db: Executor, siteId: string): Promise<void> {
  await afterCommit(db, () => {
    subscribedTypes.delete(siteId);
    return Promise.resolve();
  });
}

/** An event recorded and not written yet: everything but its sequence number. */
type UnnumberedEvent = Omit<NewOutboxEvent, 'sequence'>;

/** Events each open transaction has recorded and will write right before it commits. */
const pendingEvents = new WeakMap<Executor, UnnumberedEvent[]>();

/**
 * Writes events with their per-entity sequence numbers: one upsert reserves the numbers of every
 * entity (per site), one insert writes the rows, in the order they were recorded.
 */
async function writeEvents(ctx: RequestContext, db: Executor, rows: UnnumberedEvent[]): Promise<void> {
  pendingEvents.delete(db);
  const next = new Map<string, number>();
  for (const siteId of new Set(rows.map((r) => r.siteId))) {
    const counts = new Map<string, SequenceClaim>();
    for (const r of rows) {
      if (r.siteId !== siteId) continue;
      const key = entityKey(r.entityFqdn, r.entityId);
      const claim = counts.get(key) ?? { entityFqdn: r.entityFqdn, entityId: r.entityId, count: 0 };
      claim.count += 1;
      counts.set(key, claim);
    }
    const last = await reserveEntitySequences(db, siteId, [...counts.values()]);
    for (const [key, claim] of counts) next.set(`${siteId}\u0000${key}`, last.get(key)! - claim.count + 1);
  }
  await insertOutboxEvents(db, rows.map((r) => {
    const key = `${r.siteId}\u0000${entityKey(r.entityFqdn, r.entityId)}`;
    const sequence = next.get(key)!;
    next.set(key, sequence + 1);
    return { ...r, sequence };
  }));
  // Fan out right after the commit, in this process, rather than at the next poll.
  await afterCommit(db, () => {
    kickLocalFanOut(ctx.deps);
    return Promise.resolve();
  });
}

// ---------------------------------------------------------------------------------------------
// Mail queue, for other domains (identity codes, etc.) and for the worker's templates

export { enqueueMail, type MailInput } from './mail.js';

/** Mails to one address of a site, oldest first, optionally of some templates only. */
export async function listMail(db: Executor, siteId: string, to: string, templates?: readonly string[]): Promise<{ id: string; template: string; to: string; subject: string; text: string; html: string; status: string; createdDate: string }[]> {
  const rows = (await listMailsTo(db, siteId, to)).filter((m) => !templates || templates.includes(m.template));
  return rows.map((m) => ({ id: m.id, template: m.template, to: m.to_address, subject: m.subject, text: m.text, html: m.html, status: m.status, createdDate: m.created_date }));
}

// ---------------------------------------------------------------------------------------------
// Subscriptions (owner API)

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** SSRF guard at registration (target.ts): a 400 on `subscription.url` when the target is refused. Runs before any transaction (DNS may take a while). */
async function checkTargetUrl(ctx: RequestContext, url: string): Promise<void> {
  const problem = await webhookUrlProblem(url, ctx.deps.config.webhooks.allowPrivateTargets);
  if (problem) throw violation('subscription.url', problem, 'FORMAT');
}

export async function createSubscription(ctx: RequestContext, input: z.infer<typeof createSubscriptionRequest>['subscription']): Promise<SubscriptionRecord> {
  await checkTargetUrl(ctx, input.url);
  return inTransaction(ctx.db, async (trx) => {
    if (await countSubscriptions(trx, ctx.site.id) >= MAX_SUBSCRIPTIONS_PER_SITE) {
      throw conflict('TOO_MANY_SUBSCRIPTIONS', `A site has at most ${MAX_SUBSCRIPTIONS_PER_SITE} webhook subscriptions`, { max: MAX_SUBSCRIPTIONS_PER_SITE });
    }
    const now = new Date().toISOString();
    const sub: SubscriptionRecord = {
      id: randomUUID(),
      siteId: ctx.site.id,
      url: input.url,
      description: input.description ?? '',
      eventTypes: input.eventTypes,
      secret: input.secret ?? generateSecret(),
      alertEmail: input.alertEmail ?? null,
      status: 'ACTIVE',
      disabledReason: null,
      failureStreak: 0,
      failingSince: null,
      createdDate: now,
      updatedDate: now,
    };
    await insertSubscription(trx, sub);
    await forgetSubscribedTypesAfterCommit(trx, ctx.site.id);
    return sub;
  });
}

async function mustFind(db: Executor, siteId: string, id: string): Promise<SubscriptionRecord> {
  const sub = await findSubscription(db, siteId, id);
  if (!sub) throw notFound('SUBSCRIPTION_NOT_FOUND', `Webhook subscription ${id} not found`);
  return sub;
}

export async function getSubscription(ctx: RequestContext, id: string): Promise<SubscriptionRecord> {
  return mustFind(ctx.db, ctx.site.id, id);
}

export async function listSiteSubscriptions(ctx: RequestContext): Promise<SubscriptionRecord[]> {
  return listSubscriptions(ctx.db, ctx.site.id);
}

/** Changes a subscription; setting status ACTIVE on a disabled one re-enables it with a fresh failure streak. */
export async function updateSubscription(ctx: RequestContext, id: string, patch: z.infer<typeof updateSubscriptionRequest>['subscription']): Promise<SubscriptionRecord> {
  if (patch.url !== undefined) {
    await mustFind(ctx.db, ctx.site.id, id); // an unknown id is a 404 before any URL check
    await checkTargetUrl(ctx, patch.url);
  }
  return inTransaction(ctx.db, async (trx) => {
    const current = await mustFind(trx, ctx.site.id, id);
    const enabling = patch.status === 'ACTIVE' && current.status !== 'ACTIVE';
    await updateSubscriptionRow(trx, ctx.site.id, id, {
      url: patch.url,
      description: patch.description,
      eventTypes: patch.eventTypes,
      alertEmail: patch.alertEmail,
      status: patch.status !== undefined && patch.status !== current.status ? patch.status : undefined,
      resetFailures: enabling,
    }, new Date().toISOString());
    await forgetSubscribedTypesAfterCommit(trx, ctx.site.id);
    return mustFind(trx, ctx.site.id, id);
  });
}

/**
 * Replaces the signing secret (a given one, or a new random one) and returns it once. Deliveries sent
 * from now on are signed with it; receivers should accept both secrets while they switch over.
 */
export async function rotateSecret(ctx: RequestContext, id: string, secret: string | undefined): Promise<SubscriptionRecord> {
  return inTransaction(ctx.db, async (trx) => {
    await mustFind(trx, ctx.site.id, id);
    const next = secret ?? generateSecret();
    await updateSubscriptionRow(trx, ctx.site.id, id, { secret: next }, new Date().toISOString());
    return mustFind(trx, ctx.site.id, id);
  });
}

/** Deletes a subscription; its pending deliveries become CANCELED, its log stays readable by delivery id. */
export async function deleteSubscription(ctx: RequestContext, id: string): Promise<Record<string, never>> {
  await inTransaction(ctx.db, async (trx) => {
    await mustFind(trx, ctx.site.id, id);
    await deleteSubscriptionRow(trx, ctx.site.id, id, new Date().toISOString());
    await forgetSubscribedTypesAfterCommit(trx, ctx.site.id);
  });
  return {};
}

// ---------------------------------------------------------------------------------------------
// Delivery log and redelivery

export async function listSubscriptionDeliveries(ctx: RequestContext, input: z.infer<typeof listDeliveriesRequest>): Promise<RowsPage<DeliveryRow>> {
  await mustFind(ctx.db, ctx.site.id, input.id);
  const limit = input.limit ?? LOG_PAGE_DEFAULT;
  const offset = input.offset ?? 0;
  const { rows, total } = await listDeliveries(ctx.db, ctx.site.id, input.id, { status: input.status, eventId: input.eventId }, limit, offset);
  return { rows, total, offset };
}

export async function getDelivery(ctx: RequestContext, id: string): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  const delivery = await findDelivery(ctx.db, ctx.site.id, id);
  if (!delivery) throw notFound('DELIVERY_NOT_FOUND', `Webhook delivery ${id} not found`);
  return { delivery, attempts: await listAttempts(ctx.db, [id]) };
}

/**
 * Sends a finished delivery again as a new delivery (same event id and body, fresh retry window);
 * the original keeps its log. A delivery still pending is already being retried: 409.
 */
export async function redeliver(ctx: RequestContext, id: string, retryWindowMs: number): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  return inTransaction(ctx.db, async (trx) => {
    const original = await findDelivery(trx, ctx.site.id, id);
    if (!original) throw notFound('DELIVERY_NOT_FOUND', `Webhook delivery ${id} not found`);
    if (original.status === 'PENDING') throw conflict('DELIVERY_PENDING', 'This delivery is still being retried');
    const sub = await findSubscription(trx, ctx.site.id, original.subscription_id);
    if (!sub) throw notFound('SUBSCRIPTION_NOT_FOUND', 'The subscription of this delivery was deleted');
    const now = new Date();
    const copy: DeliveryRow = {
      ...original,
      id: randomUUID(),
      status: 'PENDING',
      attempts: 0,
      next_attempt_at: now.toISOString(),
      give_up_after: new Date(now.getTime() + retryWindowMs).toISOString(),
      lease_owner: null,
      lease_until: null,
      last_status_code: null,
      last_error: null,
      redelivery_of: original.id,
      created_date: now.toISOString(),
      updated_date: now.toISOString(),
    };
    await insertDeliveries(trx, [copy]);
    return { delivery: copy, attempts: [] };
  });
}

// ---------------------------------------------------------------------------------------------
// Mailbox (owner API)

export async function listMailbox(ctx: RequestContext, input: z.infer<typeof listMailsRequest>): Promise<RowsPage<MailRow>> {
  const limit = input.limit ?? LOG_PAGE_DEFAULT;
  const offset = input.offset ?? 0;
  const { rows, total } = await listMails(ctx.db, ctx.site.id, { status: input.status, template: input.template }, limit, offset);
  return { rows, total, offset };
}
