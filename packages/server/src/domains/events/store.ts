import { sql } from 'kysely';
import type { Executor } from '../../storage/database.js';
import { forUpdate, indexedState, readJson, toJson, type DialectName } from '../../storage/dialect.js';
import { allColumns, columnsOf, preparedQuery } from '../../storage/prepared.js';
import type { EventTypePattern } from './model.js';

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
  sequence: number;
  dispatched: number;
}

interface EventEntitySequencesTable {
  site_id: string;
  entity_fqdn: string;
  entity_id: string;
  last_sequence: number;
}

interface WebhookSubscriptionsTable {
  id: string;
  site_id: string;
  url: string;
  description: string;
  event_types: unknown;
  secret: string;
  alert_email: string | null;
  status: string;
  disabled_reason: string | null;
  failure_streak: number;
  failing_since: string | null;
  created_date: string;
  updated_date: string;
}

interface WebhookDeliveriesTable {
  id: string;
  site_id: string;
  subscription_id: string;
  event_id: string;
  entity_fqdn: string;
  slug: string;
  entity_id: string;
  sequence: number;
  body: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  give_up_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_date: string;
  updated_date: string;
}

interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_date: string;
  duration_ms: number;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
  worker_id: string | null;
}

interface NotificationMailsTable {
  id: string;
  site_id: string;
  template: string;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  event_id: string | null;
  status: string;
  attempts: number;
  next_attempt_at: string;
  give_up_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_date: string;
  sent_date: string | null;
}

declare module '../../storage/schema.js' {
  interface Database {
    outbox_events: OutboxEventsTable;
    event_entity_sequences: EventEntitySequencesTable;
    webhook_subscriptions: WebhookSubscriptionsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
    notification_mails: NotificationMailsTable;
  }
}

export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookDeliveryAttemptsTable;
export type MailRow = NotificationMailsTable;

// ---------------------------------------------------------------------------------------------
// Outbox

export interface NewOutboxEvent {
  id: string;
  siteId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  sequence: number;
  actorType: string | undefined;
  actorId: string | undefined;
  /** `{ entity, data }` as JSON text, made when the event was recorded (a later change of the entity object cannot reach it). */
  payloadJson: string;
  createdDate: string;
}

export interface OutboxEventRow {
  id: string;
  siteId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  sequence: number;
  actorType: string | null;
  actorId: string | null;
  payload: { entity: unknown; data: Record<string, unknown> };
  createdDate: string;
}

/** Rows per multi-row statement: far below SQLite's and PostgreSQL's bound-parameter limits. */
const EVENT_BATCH_ROWS = 500;

/** One entity's share of a sequence reservation. */
export interface SequenceClaim { entityFqdn: string; entityId: string; count: number }

/**
 * Reserves sequence numbers for events of several entities: each claim's entity gets `count` numbers.
 * Answers each entity's last reserved number (its events take the `count` numbers ending there), keyed
 * by `entityKey`. The upsert takes the counter rows' locks until the surrounding transaction ends, so
 * two writers of one entity get consecutive numbers in commit order. Claims are taken sorted by kind,
 * then id, in one statement per EVENT_BATCH_ROWS, so concurrent writers lock rows in the same order.
 */
export async function reserveEntitySequences(db: Executor, siteId: string, claims: SequenceClaim[]): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  const sorted = [...claims].sort((a, b) => (a.entityFqdn !== b.entityFqdn ? (a.entityFqdn < b.entityFqdn ? -1 : 1) : a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0));
  for (let i = 0; i < sorted.length; i += EVENT_BATCH_ROWS) {
    const chunk = sorted.slice(i, i + EVENT_BATCH_ROWS);
    // SQL text: the builder spent more time building and compiling these two statements (run for
    // every event-recording write) than the database spent running them.
    const { rows } = await sql<{ entity_fqdn: string; entity_id: string; last_sequence: number | string }>`
      INSERT INTO event_entity_sequences (site_id, entity_fqdn, entity_id, last_sequence)
      VALUES ${sql.join(chunk.map((c) => sql`(${siteId}, ${c.entityFqdn}, ${c.entityId}, ${c.count})`))}
      ON CONFLICT (site_id, entity_fqdn, entity_id) DO UPDATE SET last_sequence = event_entity_sequences.last_sequence + excluded.last_sequence
      RETURNING entity_fqdn, entity_id, last_sequence`.execute(db);
    for (const row of rows) last.set(entityKey(row.entity_fqdn, row.entity_id), Number(row.last_sequence));
  }
  return last;
}

/** The key of one entity in a reservation's answer. */
export const entityKey = (entityFqdn: string, entityId: string) => `${entityFqdn}\u0000${entityId}`;

export async function insertOutboxEvents(db: Executor, events: NewOutboxEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += EVENT_BATCH_ROWS) {
    const rows = events.slice(i, i + EVENT_BATCH_ROWS).map((e) => sql`(${e.id}, ${e.siteId}, ${e.entityFqdn}, ${e.slug}, ${e.entityId}, ${e.sequence}, 0, ${e.actorType ?? null}, ${e.actorId ?? null}, ${e.payloadJson}, ${e.createdDate})`);
    await sql`INSERT INTO outbox_events (id, site_id, entity_fqdn, slug, entity_id, sequence, dispatched, actor_type, actor_id, payload, created_date)
      VALUES ${sql.join(rows)}`.execute(db);
  }
}

function outboxRow(r: OutboxEventsTable): OutboxEventRow {
  return {
    id: r.id,
    siteId: r.site_id,
    entityFqdn: r.entity_fqdn,
    slug: r.slug,
    entityId: r.entity_id,
    sequence: Number(r.sequence),
    actorType: r.actor_type,
    actorId: r.actor_id,
    payload: readJson(r.payload),
    createdDate: r.created_date,
  };
}

/**
 * Locks up to `limit` events not yet fanned out. Call inside a transaction: on PostgreSQL the rows stay
 * locked (other workers skip them) until it commits; SQLite has one writer per file anyway.
 */
export async function lockUndispatchedEvents(trx: Executor, dialect: DialectName, limit: number): Promise<OutboxEventRow[]> {
  const base = trx.selectFrom('outbox_events').selectAll().where('dispatched', '=', indexedState(0)).orderBy('created_date').orderBy('sequence').limit(limit);
  const rows = await base.modifyEnd(forUpdate(dialect, { skipLocked: true })).execute();
  return rows.map(outboxRow);
}

const someUndispatched = preparedQuery((db, _p: Record<string, never>) => db.selectFrom('outbox_events').select('id').where('dispatched', '=', indexedState(0)).limit(1));

/** Whether any event waits to be fanned out (the first entry of the partial index outbox_events_undispatched, if any). */
export async function hasUndispatchedEvents(db: Executor): Promise<boolean> {
  return (await someUndispatched.run(db, {})).rows.length > 0;
}

const someDueDelivery = preparedQuery((db, p: { now: string }) =>
  db.selectFrom('webhook_deliveries').select('id').where('status', '=', indexedState('PENDING')).where('next_attempt_at', '<=', p.now).limit(1));

/** Whether any webhook delivery is due by `now` (one probe of the partial index webhook_deliveries_pending). */
export async function hasDueDeliveries(db: Executor, now: string): Promise<boolean> {
  return (await someDueDelivery.run(db, { now })).rows.length > 0;
}

export async function markEventsDispatched(trx: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('outbox_events').set({ dispatched: 1 }).where('id', 'in', ids).execute();
}

/** Events of a site, newest first (tests and diagnostics; no index of its own). */
export async function listOutboxEvents(db: Executor, siteId: string, filter: { entityFqdn?: string; entityId?: string }, limit: number): Promise<OutboxEventRow[]> {
  let q = db.selectFrom('outbox_events').selectAll().where('site_id', '=', siteId);
  if (filter.entityFqdn) q = q.where('entity_fqdn', '=', filter.entityFqdn);
  if (filter.entityId) q = q.where('entity_id', '=', filter.entityId);
  const rows = await q.orderBy('created_date', 'desc').orderBy('sequence', 'desc').limit(limit).execute();
  return rows.map(outboxRow);
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export interface SubscriptionRecord {
  id: string;
  siteId: string;
  url: string;
  description: string;
  eventTypes: { entityFqdn: string; slug: string }[];
  secret: string;
  alertEmail: string | null;
  status: 'ACTIVE' | 'DISABLED';
  disabledReason: string | null;
  failureStreak: number;
  failingSince: string | null;
  createdDate: string;
  updatedDate: string;
}

function subscriptionRecord(r: WebhookSubscriptionsTable): SubscriptionRecord {
  return {
    id: r.id,
    siteId: r.site_id,
    url: r.url,
    description: r.description,
    eventTypes: readJson(r.event_types),
    secret: r.secret,
    alertEmail: r.alert_email,
    status: r.status as SubscriptionRecord['status'],
    disabledReason: r.disabled_reason,
    failureStreak: Number(r.failure_streak),
    failingSince: r.failing_since,
    createdDate: r.created_date,
    updatedDate: r.updated_date,
  };
}

export async function insertSubscription(db: Executor, s: SubscriptionRecord): Promise<void> {
  await db.insertInto('webhook_subscriptions').values({
    id: s.id,
    site_id: s.siteId,
    url: s.url,
    description: s.description,
    event_types: toJson(s.eventTypes),
    secret: s.secret,
    alert_email: s.alertEmail,
    status: s.status,
    disabled_reason: s.disabledReason,
    failure_streak: s.failureStreak,
    failing_since: s.failingSince,
    created_date: s.createdDate,
    updated_date: s.updatedDate,
  }).execute();
}

export async function countSubscriptions(db: Executor, siteId: string): Promise<number> {
  const row = await db.selectFrom('webhook_subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findSubscription(db: Executor, siteId: string, id: string): Promise<SubscriptionRecord | undefined> {
  const row = await db.selectFrom('webhook_subscriptions').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return row ? subscriptionRecord(row) : undefined;
}

export async function listSubscriptions(db: Executor, siteId: string): Promise<SubscriptionRecord[]> {
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('site_id', '=', siteId).orderBy('created_date').orderBy('id').execute();
  return rows.map(subscriptionRecord);
}

/** The event type patterns of a site's active subscriptions (one list per subscription). */
export async function activeEventTypesOfSite(db: Executor, siteId: string): Promise<EventTypePattern[][]> {
  const r = await sql<{ event_types: unknown }>`SELECT event_types FROM webhook_subscriptions WHERE site_id = ${siteId} AND status = 'ACTIVE'`.execute(db);
  return r.rows.map((row) => readJson<EventTypePattern[]>(row.event_types));
}

export async function activeSubscriptionsOfSites(db: Executor, siteIds: string[]): Promise<SubscriptionRecord[]> {
  if (siteIds.length === 0) return [];
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('site_id', 'in', siteIds).where('status', '=', 'ACTIVE').execute();
  return rows.map(subscriptionRecord);
}

export async function updateSubscriptionRow(db: Executor, siteId: string, id: string, patch: {
  url?: string; description?: string; eventTypes?: unknown; alertEmail?: string | null; status?: string; resetFailures?: boolean; secret?: string;
}, now: string): Promise<void> {
  await db.updateTable('webhook_subscriptions').set({
    ...(patch.secret !== undefined ? { secret: patch.secret } : {}),
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.eventTypes !== undefined ? { event_types: toJson(patch.eventTypes) } : {}),
    ...(patch.alertEmail !== undefined ? { alert_email: patch.alertEmail } : {}),
    ...(patch.status !== undefined ? { status: patch.status, disabled_reason: null } : {}),
    ...(patch.resetFailures ? { failure_streak: 0, failing_since: null } : {}),
    updated_date: now,
  }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

export async function deleteSubscriptionRow(db: Executor, siteId: string, id: string, now: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'CANCELED', lease_owner: null, lease_until: null, updated_date: now })
    .where('subscription_id', '=', id).where('status', '=', 'PENDING').execute();
  await db.deleteFrom('webhook_subscriptions').where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Counts one failed attempt; returns the streak after it. */
export async function recordSubscriptionFailure(db: Executor, id: string, now: string): Promise<{ failureStreak: number; failingSince: string; status: string } | undefined> {
  const row = await db.updateTable('webhook_subscriptions')
    .set({ failure_streak: sql<number>`failure_streak + 1`, failing_since: sql<string>`coalesce(failing_since, ${now})` })
    .where('id', '=', id)
    .returning(['failure_streak', 'failing_since', 'status'])
    .executeTakeFirst();
  return row ? { failureStreak: Number(row.failure_streak), failingSince: row.failing_since ?? now, status: row.status } : undefined;
}

export async function resetSubscriptionFailures(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_subscriptions').set({ failure_streak: 0, failing_since: null })
    .where('id', '=', id).where('failure_streak', '>', 0).execute();
}

/** Disables an active subscription; true when this call made the change (so one alert is sent). */
export async function disableSubscription(db: Executor, id: string, reason: string, now: string): Promise<boolean> {
  const res = await db.updateTable('webhook_subscriptions').set({ status: 'DISABLED', disabled_reason: reason, updated_date: now })
    .where('id', '=', id).where('status', '=', 'ACTIVE').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export type NewDelivery = Omit<DeliveryRow, 'lease_owner' | 'lease_until' | 'last_status_code' | 'last_error' | 'attempts' | 'updated_date'>;

export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<void> {
  // Chunked: SQLite binds at most 32766 parameters per statement.
  for (let i = 0; i < rows.length; i += 200) {
    await db.insertInto('webhook_deliveries').values(rows.slice(i, i + 200).map((r) => ({
      ...r, attempts: 0, lease_owner: null, lease_until: null, last_status_code: null, last_error: null, updated_date: r.created_date,
    }))).execute();
  }
}

/** Gives leased rows back unchanged (claimed beyond a subscription's in-flight cap). */
export async function releaseDeliveries(db: Executor, ids: string[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_until: null })
    .where('id', 'in', ids).where('lease_owner', '=', owner).execute();
}

/**
 * Leases up to `limit` due deliveries. A delivery is due when its subscription is active, no earlier
 * event of the same entity is still pending for that subscription, and no earlier event of the entity
 * is still waiting to be fanned out: that keeps per-entity order. An expired lease (a crashed worker)
 * makes the row claimable again. Subscriptions that already have `perSubscriptionCap` requests in
 * flight are skipped (one statement may still take several rows of one subscription; the worker gives
 * the extra back). One statement, so the claim is atomic on both dialects; on PostgreSQL
 * `SKIP LOCKED` lets several processes claim side by side without waiting for each other.
 */
export async function claimDueDeliveries(db: Executor, dialect: DialectName, owner: string, now: string, leaseUntil: string, limit: number, perSubscriptionCap: number): Promise<DeliveryRow[]> {
  const lock = forUpdate(dialect, { skipLocked: true, of: 'd' });
  // Picked once in a materialized CTE: a `WHERE id IN (SELECT ... LIMIT n SKIP LOCKED)` subquery may be
  // re-run per row by PostgreSQL under contention and lease more than `limit` rows.
  const result = await sql<DeliveryRow>`
    WITH picked AS MATERIALIZED (
      SELECT d.id FROM webhook_deliveries d
      JOIN webhook_subscriptions s ON s.id = d.subscription_id
      WHERE d.status = 'PENDING' AND d.next_attempt_at <= ${now}
        AND (d.lease_until IS NULL OR d.lease_until < ${now})
        AND s.status = 'ACTIVE'
        AND (SELECT count(*) FROM webhook_deliveries f
          WHERE f.subscription_id = d.subscription_id AND f.status = 'PENDING' AND f.lease_until >= ${now}) < ${perSubscriptionCap}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
          WHERE p.subscription_id = d.subscription_id AND p.entity_fqdn = d.entity_fqdn AND p.entity_id = d.entity_id
            AND p.sequence < d.sequence AND p.status = 'PENDING')
        AND NOT EXISTS (SELECT 1 FROM outbox_events e
          WHERE e.site_id = d.site_id AND e.entity_fqdn = d.entity_fqdn AND e.entity_id = d.entity_id
            AND e.sequence < d.sequence AND e.dispatched = 0)
      ORDER BY d.next_attempt_at, d.sequence
      LIMIT ${limit}
      ${lock}
    )
    UPDATE webhook_deliveries SET lease_owner = ${owner}, lease_until = ${leaseUntil}
    WHERE id IN (SELECT id FROM picked)
    RETURNING *`.execute(db);
  return result.rows.map((r) => ({ ...r, sequence: Number(r.sequence), attempts: Number(r.attempts) }));
}

export async function insertAttempt(db: Executor, row: AttemptRow): Promise<void> {
  await db.insertInto('webhook_delivery_attempts').values(row).execute();
}

/** Ends a leased attempt; only the lease holder may (a worker whose lease expired changes nothing). */
export async function finishDeliveryAttempt(db: Executor, id: string, owner: string, patch: {
  status: string; attempts: number; nextAttemptAt?: string; giveUpAfter?: string; lastStatusCode: number | null; lastError: string | null;
}, now: string): Promise<boolean> {
  const res = await db.updateTable('webhook_deliveries').set({
    status: patch.status,
    attempts: patch.attempts,
    ...(patch.nextAttemptAt ? { next_attempt_at: patch.nextAttemptAt } : {}),
    ...(patch.giveUpAfter ? { give_up_after: patch.giveUpAfter } : {}),
    last_status_code: patch.lastStatusCode,
    last_error: patch.lastError,
    lease_owner: null,
    lease_until: null,
    updated_date: now,
  }).where('id', '=', id).where('lease_owner', '=', owner).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function findDelivery(db: Executor, siteId: string, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export async function listDeliveries(db: Executor, siteId: string, subscriptionId: string, filter: { status?: string; eventId?: string }, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
  let q = db.selectFrom('webhook_deliveries').where('site_id', '=', siteId).where('subscription_id', '=', subscriptionId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.eventId) q = q.where('event_id', '=', filter.eventId);
  const rows = await q.selectAll().orderBy('created_date', 'desc').orderBy('sequence', 'desc').orderBy('id').limit(limit).offset(offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

export async function listAttempts(db: Executor, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('attempt').execute();
}

// ---------------------------------------------------------------------------------------------
// Mail queue

export type NewMail = Omit<MailRow, 'attempts' | 'lease_owner' | 'lease_until' | 'last_error' | 'sent_date'>;
const NEW_MAIL_COLUMNS = allColumns<NewMail>({
  id: true, site_id: true, template: true, to_address: true, subject: true, html: true, text: true, event_id: true, status: true,
  next_attempt_at: true, give_up_after: true, created_date: true,
});

const mailInsert = preparedQuery((db, p: NewMail) => db.insertInto('notification_mails').values({
  ...columnsOf(p, NEW_MAIL_COLUMNS), attempts: 0, lease_owner: null, lease_until: null, last_error: null, sent_date: null,
}));

export async function insertMail(db: Executor, mail: NewMail): Promise<void> {
  await mailInsert.run(db, mail);
}

/** The mails of these ids that exist, in the order of `ids`. */
export async function findMails(db: Executor, ids: string[]): Promise<MailRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('notification_mails').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, { ...row, attempts: Number(row.attempts) }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Keeps still-PENDING mails in the mailbox unsent (no SMTP server to send them to): one statement for all. */
export async function storeMails(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('notification_mails').set({ status: 'STORED', last_error: null, sent_date: null })
    .where('id', 'in', ids).where('status', '=', 'PENDING').execute();
}

/** Records a send attempt's outcome (the mail.send job is the only writer of a mail after it is queued). */
export async function finishMail(db: Executor, id: string, patch: { status: string; attempts: number; lastError: string | null; sentDate: string | null }): Promise<void> {
  await mailFinish.run(db, { id, ...patch });
}

const mailFinish = preparedQuery((db, p: { id: string; status: string; attempts: number; lastError: string | null; sentDate: string | null }) =>
  db.updateTable('notification_mails').set({ status: p.status, attempts: p.attempts, last_error: p.lastError, sent_date: p.sentDate }).where('id', '=', p.id));

/** Mails to one address, oldest first (tests read e-mailed codes here); mails of one millisecond in insertion order. */
export async function listMailsTo(db: Executor, siteId: string, to: string): Promise<MailRow[]> {
  return db.selectFrom('notification_mails').selectAll().where('site_id', '=', siteId).where('to_address', '=', to).orderBy('created_date').execute();
}

export async function listMails(db: Executor, siteId: string, filter: { status?: string; template?: string }, limit: number, offset: number): Promise<{ rows: MailRow[]; total: number }> {
  let q = db.selectFrom('notification_mails').where('site_id', '=', siteId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.template) q = q.where('template', '=', filter.template);
  const rows = await q.selectAll().orderBy('created_date', 'desc').orderBy('id').limit(limit).offset(offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

export async function findSubscriptionsByIds(db: Executor, ids: string[]): Promise<SubscriptionRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('id', 'in', ids).execute();
  return rows.map(subscriptionRecord);
}

// ---------------------------------------------------------------------------------------------
// Retention

export interface PruneCutoffs {
  /** Dispatched outbox events created before this are deleted. */
  eventsBefore: string;
  /** Finished deliveries (and their attempts) last changed before this are deleted. */
  deliveriesBefore: string;
  /** Sent, stored or failed mails created before this are deleted. */
  mailsBefore: string;
}

/**
 * Deletes history older than the cutoffs, at most `limit` rows per table per call. Pending rows are
 * never touched, nor `event_entity_sequences` (sequence numbers must keep counting up).
 */
export async function pruneHistory(db: Executor, cutoffs: PruneCutoffs, limit: number): Promise<{ events: number; deliveries: number; mails: number }> {
  const events = await db.deleteFrom('outbox_events').where('id', 'in', (eb) => eb.selectFrom('outbox_events').select('id')
    .where('dispatched', '=', 1).where('created_date', '<', cutoffs.eventsBefore).limit(limit)).executeTakeFirst();
  const doomed = await db.selectFrom('webhook_deliveries').select('id')
    .where('status', '!=', 'PENDING').where('updated_date', '<', cutoffs.deliveriesBefore).limit(limit).execute();
  const ids = doomed.map((d) => d.id);
  let deliveries = 0;
  if (ids.length > 0) {
    await db.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', ids).execute();
    deliveries = Number((await db.deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst()).numDeletedRows);
  }
  const mails = await db.deleteFrom('notification_mails').where('id', 'in', (eb) => eb.selectFrom('notification_mails').select('id')
    .where('status', '!=', 'PENDING').where('created_date', '<', cutoffs.mailsBefore).limit(limit)).executeTakeFirst();
  return { events: Number(events.numDeletedRows), deliveries, mails: Number(mails.numDeletedRows) };
}
