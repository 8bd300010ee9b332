import { randomUUID } from 'node:crypto';
import { JobInterrupted } from '../../jobs/errors.js';
import { defineJobKind, type JobContext } from '../../jobs/kinds.js';
import { PERIODIC_DEDUP_KEY } from '../../jobs/runner.js';
import { enqueueJob } from '../../jobs/service.js';
import type { AppDeps } from '../../http/context.js';
import { inTransaction } from '../../storage/transaction.js';
import { detachedFromRequest } from '../../storage/detached.js';
import type { Executor } from '../../storage/database.js';
import { getSite } from '../sites/index.js';
import { mailsForEvent, plainEmail, webhookDisabledMail, type MailSite } from './mail-templates.js';
import { backoffDelayMs, classifyStatus, eventActorType, matchesAny, retryAfterMs, SIGNATURE_HEADER, signatureHeader, type WebhookEnvelope } from './model.js';
import { postWebhook } from './post.js';
import { enqueueMail, enqueueMails, type MailInput } from './mail.js';
import { assertDeliverable, BlockedTargetError, guardedLookup } from './target.js';
import type { EventsSettings } from './settings.js';
import {
  activeSubscriptionsOfSites, claimDueDeliveries, hasDueDeliveries, hasUndispatchedEvents, disableSubscription, findSubscriptionsByIds, finishDeliveryAttempt,
  insertAttempt, insertDeliveries, lockUndispatchedEvents, markEventsDispatched, pruneHistory, recordSubscriptionFailure, releaseDeliveries,
  resetSubscriptionFailures,
  type DeliveryRow, type NewDelivery, type OutboxEventRow, type SubscriptionRecord,
} from './store.js';

/** Events fanned out per transaction, and transactions per dispatch job (the next job goes on). */
const FAN_OUT_BATCH = 200;
const FAN_OUT_ROUNDS = 50;
/** How long one webhooks.deliver job keeps claiming before it ends (the next one goes on). */
const DELIVER_JOB_MAX_MS = 60_000;
/** Bytes of a receiver's answer kept in the delivery log. */
const RESPONSE_EXCERPT_MAX = 1_024;
const ERROR_TEXT_MAX = 500;
const USER_AGENT = 'Vitrine-Webhooks/1';
/** History kept: dispatched events 7 days, finished deliveries with their attempts 30 days, mails 90 days. */
export const OUTBOX_RETENTION_MS = 7 * 86_400_000;
export const DELIVERY_LOG_RETENTION_MS = 30 * 86_400_000;
export const MAILBOX_RETENTION_MS = 90 * 86_400_000;
/** How often history is pruned, and how many rows per table per pass. */
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1_000;
/** Requests in flight per subscription across all runners, so one slow receiver cannot take every slot. */
export const MAX_IN_FLIGHT_PER_SUBSCRIPTION = 10;

const iso = (ms: number) => new Date(ms).toISOString();

export function envelopeOf(e: OutboxEventRow): WebhookEnvelope {
  return {
    id: e.id,
    siteId: e.siteId,
    entityFqdn: e.entityFqdn,
    slug: e.slug,
    entityId: e.entityId,
    entityEventSequence: e.sequence,
    eventTime: e.createdDate,
    actor: { type: eventActorType(e.actorType), id: e.actorId },
    entity: e.payload.entity ?? null,
    data: e.payload.data ?? {},
  };
}

async function mailSite(db: Executor, siteId: string, cache: Map<string, MailSite>): Promise<MailSite> {
  const hit = cache.get(siteId);
  if (hit) return hit;
  const site = await getSite(db, siteId);
  const disabled = site?.settings.disabledMailTemplates;
  const info: MailSite = {
    name: site?.name ?? 'Vitrine',
    ownerEmail: plainEmail(site?.settings.ownerEmail),
    disabledTemplates: Array.isArray(disabled) ? disabled.filter((t): t is string => typeof t === 'string') : [],
  };
  cache.set(siteId, info);
  return info;
}

/** Turns undispatched events into deliveries and mails, in one transaction with marking them dispatched. */
async function fanOut(deps: AppDeps, settings: EventsSettings): Promise<{ events: number; deliveries: number }> {
  const { db, dialect } = deps.storage;
  return inTransaction(db, async (trx) => {
    const events = await lockUndispatchedEvents(trx, dialect, FAN_OUT_BATCH);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const siteIds = [...new Set(events.map((e) => e.siteId))];
    const subs = await activeSubscriptionsOfSites(trx, siteIds);
    const sites = new Map<string, MailSite>();
    const now = Date.now();
    const deliveries: NewDelivery[] = [];
    // One mail.send job per site for the whole batch (a paid order's confirmation and payment mails go together).
    const mailsBySite = new Map<string, MailInput[]>();
    for (const e of events) {
      const body = JSON.stringify(envelopeOf(e));
      for (const s of subs) {
        if (s.siteId !== e.siteId || !matchesAny(s.eventTypes, e.entityFqdn, e.slug)) continue;
        deliveries.push({
          id: randomUUID(), site_id: e.siteId, subscription_id: s.id, event_id: e.id, entity_fqdn: e.entityFqdn, slug: e.slug,
          entity_id: e.entityId, sequence: e.sequence, body, status: 'PENDING', next_attempt_at: iso(now),
          give_up_after: iso(now + settings.retryWindowMs), redelivery_of: null, created_date: iso(now),
        });
      }
      const mails = mailsForEvent({ entityFqdn: e.entityFqdn, slug: e.slug, entity: e.payload.entity, data: e.payload.data ?? {} }, await mailSite(trx, e.siteId, sites));
      if (mails.length === 0) continue;
      const siteMails = mailsBySite.get(e.siteId) ?? [];
      mailsBySite.set(e.siteId, siteMails);
      for (const mail of mails) siteMails.push({ ...mail, eventId: e.id });
    }
    for (const [siteId, mails] of mailsBySite) await enqueueMails({ db: trx, site: { id: siteId }, deps }, mails);
    await insertDeliveries(trx, deliveries);
    await markEventsDispatched(trx, events.map((e) => e.id));
    return { events: events.length, deliveries: deliveries.length };
  });
}


/**
 * The sending side of one webhooks.deliver job: claims as many due deliveries as there are free
 * slots (settings.batchSize) and sends them without waiting; each finished request frees its slot.
 * Claims are leases in the database owned by the runner, so runners of several processes share the work.
 */
class DeliverySender {
  /** Deliveries being sent; at most batchSize, so one slow receiver does not hold up a whole round. */
  private readonly inFlight = new Set<Promise<void>>();
  private finished: (() => void) | undefined;

  constructor(private readonly deps: AppDeps, private readonly settings: EventsSettings, private readonly owner: string, private readonly signal: AbortSignal) {}

  get sending(): number {
    return this.inFlight.size;
  }

  /** Resolves when a request finishes, or after `ms`. */
  async nextFinished(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.finished = () => { clearTimeout(timer); resolve(); };
    });
    this.finished = undefined;
  }

  /** Waits for the requests in flight (on stop they were aborted and hand their rows back). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Claims as many due deliveries as there are free slots and starts sending them without waiting;
   * each finished request frees its slot and wakes the loop.
   */
  async deliverDue(): Promise<number> {
    const free = this.settings.batchSize - this.inFlight.size;
    if (free <= 0 || this.signal.aborted) return 0;
    const { db, dialect } = this.deps.storage;
    const now = Date.now();
    const leased = await claimDueDeliveries(db, dialect, this.owner, iso(now), iso(now + this.settings.leaseMs), free, MAX_IN_FLIGHT_PER_SUBSCRIPTION);
    if (leased.length === 0) return 0;
    // One claim may take more of a subscription than its cap allows: keep the first ones, give the rest back.
    const perSubscription = new Map<string, number>();
    const claimed: DeliveryRow[] = [];
    const extra: string[] = [];
    for (const d of leased) {
      const n = (perSubscription.get(d.subscription_id) ?? 0) + 1;
      perSubscription.set(d.subscription_id, n);
      if (n <= MAX_IN_FLIGHT_PER_SUBSCRIPTION) claimed.push(d);
      else extra.push(d.id);
    }
    await releaseDeliveries(db, extra, this.owner);
    const subs = new Map((await findSubscriptionsByIds(db, [...new Set(claimed.map((d) => d.subscription_id))])).map((s) => [s.id, s]));
    for (const d of claimed) {
      const sending: Promise<void> = this.deliverOne(d, subs.get(d.subscription_id))
        .catch((err: unknown) => this.deps.log.error({ err, deliveryId: d.id }, 'webhook delivery failed to record'))
        .finally(() => {
          this.inFlight.delete(sending);
          this.finished?.();
        });
      this.inFlight.add(sending);
    }
    return claimed.length;
  }

  private async deliverOne(d: DeliveryRow, sub: SubscriptionRecord | undefined): Promise<void> {
    const db = this.deps.storage.db;
    const attempt = d.attempts + 1;
    if (!sub) {
      await finishDeliveryAttempt(db, d.id, this.owner, { status: 'CANCELED', attempts: d.attempts, lastStatusCode: null, lastError: 'subscription deleted' }, iso(Date.now()));
      return;
    }
    const started = Date.now();
    let statusCode: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    let retryAfter: number | undefined;
    let blocked = false;
    try {
      const timestamp = Math.floor(started / 1000);
      const allowPrivate = this.deps.config.webhooks.allowPrivateTargets;
      // SSRF guard: the scheme and an IP host are checked here, a host name while connecting (target.ts).
      const url = assertDeliverable(sub.url, allowPrivate);
      const res = await postWebhook(url, d.body, {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [SIGNATURE_HEADER]: signatureHeader(sub.secret, timestamp, d.body),
        'vitrine-event-id': d.event_id,
        'vitrine-event-type': `${d.entity_fqdn}/${d.slug}`,
        'vitrine-delivery-id': d.id,
        'vitrine-delivery-attempt': String(attempt),
      }, {
        signal: AbortSignal.any([this.signal, AbortSignal.timeout(this.settings.requestTimeoutMs)]),
        lookup: guardedLookup(allowPrivate),
        excerptMax: RESPONSE_EXCERPT_MAX,
      });
      statusCode = res.status;
      retryAfter = retryAfterMs(res.retryAfter, Date.now());
      excerpt = res.excerpt;
    } catch (err) {
      if (this.signal.aborted) {
        // Shutting down: hand the row back without counting an attempt the receiver may never have seen.
        await finishDeliveryAttempt(db, d.id, this.owner, { status: 'PENDING', attempts: d.attempts, lastStatusCode: d.last_status_code, lastError: d.last_error }, iso(Date.now()));
        return;
      }
      // A refused target fails at once: retrying would only ask the resolver again and again.
      blocked = err instanceof BlockedTargetError;
      error = (blocked ? `blocked: ${(err as Error).message}`
        : err instanceof Error ? `${err.name}: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err)).slice(0, ERROR_TEXT_MAX);
    }
    const finished = Date.now();
    let outcome = blocked ? 'FAILED' : statusCode === null ? 'RETRY' : classifyStatus(statusCode);
    let lastError = error ?? (outcome === 'SUCCEEDED' ? null : `HTTP ${statusCode}`);
    // The retry window starts at the first attempt: a delivery that waited behind an earlier event of
    // its entity still gets its full window.
    const giveUpAfter = d.attempts === 0 ? started + this.settings.retryWindowMs : Date.parse(d.give_up_after);
    if (outcome === 'RETRY' && finished >= giveUpAfter) {
      outcome = 'FAILED';
      lastError = `${lastError}; gave up after the retry window`;
    }
    const delay = Math.min(this.settings.backoffMaxMs, Math.max(backoffDelayMs(attempt, this.settings.backoffBaseMs, this.settings.backoffMaxMs), retryAfter ?? 0));
    await inTransaction(db, async (trx) => {
      await insertAttempt(trx, {
        id: randomUUID(), delivery_id: d.id, attempt, started_date: iso(started), duration_ms: finished - started,
        status_code: statusCode, response_excerpt: excerpt, error, worker_id: this.owner,
      });
      const mine = await finishDeliveryAttempt(trx, d.id, this.owner, {
        status: outcome === 'RETRY' ? 'PENDING' : outcome,
        attempts: attempt,
        ...(outcome === 'RETRY' ? { nextAttemptAt: iso(finished + delay) } : {}),
        giveUpAfter: iso(giveUpAfter),
        lastStatusCode: statusCode,
        lastError,
      }, iso(finished));
      if (!mine) return; // our lease expired and another worker took the row over
      if (outcome === 'SUCCEEDED') {
        await resetSubscriptionFailures(trx, sub.id);
        return;
      }
      const streak = await recordSubscriptionFailure(trx, sub.id, iso(finished));
      if (!streak || streak.status !== 'ACTIVE' || streak.failureStreak < this.settings.disableAfterFailures
        || finished - Date.parse(streak.failingSince) < this.settings.disableAfterMs) return;
      const reason = `${streak.failureStreak} consecutive failed attempts since ${streak.failingSince}`;
      if (!await disableSubscription(trx, sub.id, reason, iso(finished))) return;
      const site = await mailSite(trx, sub.siteId, new Map());
      const to = sub.alertEmail ?? site.ownerEmail ?? '';
      await enqueueMail({ db: trx, site: { id: sub.siteId }, deps: this.deps }, webhookDisabledMail(to, site, { id: sub.id, url: sub.url, failureStreak: streak.failureStreak, failingSince: streak.failingSince }));
      this.deps.log.warn({ subscriptionId: sub.id, reason }, 'webhook subscription disabled');
    });
  }
}

/** Deletes old history (see the retention constants); `now` is a parameter so tests can move it. */
export async function pruneEventHistory(db: Executor, now: number): Promise<{ events: number; deliveries: number; mails: number }> {
  return pruneHistory(db, {
    eventsBefore: iso(now - OUTBOX_RETENTION_MS),
    deliveriesBefore: iso(now - DELIVERY_LOG_RETENTION_MS),
    mailsBefore: iso(now - MAILBOX_RETENTION_MS),
  }, PRUNE_BATCH);
}

const pollMs = (deps: AppDeps) => deps.config.events.pollIntervalMs;

/**
 * Fans committed outbox events out to webhook deliveries and mails. Queued after each commit that
 * recorded events (recordEvents) and every pollIntervalMs (other processes' events).
 */
export const dispatchEventsJob = defineJobKind<Record<string, never>>({
  kind: 'events.dispatch',
  everyMs: pollMs,
  hasWork: (deps) => hasUndispatchedEvents(deps.storage.db),
  concurrency: () => 1,
  async run(ctx) {
    return { events: await dispatchPending(ctx.deps, ctx.signal) };
  },
});

/** Fans out what is waiting in the outbox, in batches; answers the events fanned out. */
async function dispatchPending(deps: AppDeps, signal: AbortSignal): Promise<number> {
  let events = 0;
  let deliveries = 0;
  for (let round = 0; round < FAN_OUT_ROUNDS && !signal.aborted; round++) {
    const n = await fanOut(deps, deps.config.events);
    events += n.events;
    deliveries += n.deliveries;
    if (n.events < FAN_OUT_BATCH) break;
  }
  // New deliveries: send them now rather than at the next poll (events no subscription wants need no sender).
  if (deliveries > 0) await enqueueJob(deps.storage.db, deliverWebhooksJob, {}, { dedupKey: PERIODIC_DEDUP_KEY });
  return events;
}

/**
 * How long the local fan-out waits after the first commit that asks for it, so that one pass takes
 * the events of every commit meanwhile. A pass is a transaction of its own (begin, the outbox read,
 * the subscriptions, the site, marking dispatched, commit): run per commit it was about 0.5 ms of
 * each add-to-cart, with one event per pass under load. Events reach webhooks and mails this much later.
 */
export const LOCAL_FAN_OUT_DELAY_MS = 20;

/**
 * The fan-out a local commit starts in this process, so its events reach webhooks and mails without
 * a job row, a claim and a settle per commit. One pass at a time, LOCAL_FAN_OUT_DELAY_MS after the
 * first commit that asks; commits during a pass ask for one more. Events other processes commit, and
 * any a crash left, are fanned out by the periodic events.dispatch job as before: the outbox row is
 * the durable part.
 */
class LocalFanOut {
  private pass: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private again = false;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: AppDeps) {}

  kick(): void {
    if (this.stopping.signal.aborted || this.timer) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startPass();
    }, LOCAL_FAN_OUT_DELAY_MS);
  }

  /**
   * Starts no more passes and waits for a running one. A pass the wait was still holding back starts
   * now, as it would have without the wait: events committed just before the stop (a seed or a CLI
   * command that exits) are fanned out by this process rather than left for a later poll.
   */
  async stop(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.pass) this.startPass();
    }
    this.stopping.abort();
    while (this.pass) await this.pass;
  }

  /** Resolves once no pass is waiting or running (commits meanwhile extend the wait). */
  async settled(): Promise<void> {
    while (this.timer || this.pass) {
      if (this.pass) await this.pass;
      else await new Promise((resolve) => setTimeout(resolve, LOCAL_FAN_OUT_DELAY_MS));
    }
  }

  private startPass(): void {
    this.pass = detachedFromRequest(() => this.run()).finally(() => {
      this.pass = undefined;
      // Commits during the pass: one more pass, after the same wait.
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async run(): Promise<void> {
    try {
      await dispatchPending(this.deps, this.stopping.signal);
    } catch (err) {
      // Nothing is lost: the events stay in the outbox for the periodic job.
      this.deps.log.warn({ err }, 'events: local fan-out failed; the next poll fans out');
    }
  }
}

const localFanOuts = new WeakMap<AppDeps, LocalFanOut>();

/**
 * Starts (or extends) this process's fan-out after a commit that recorded events. Only a process that
 * runs the events worker and background jobs fans out; others leave it to the processes that do.
 */
export function kickLocalFanOut(deps: AppDeps): void {
  if (!deps.config.events.workerEnabled || !deps.config.jobs.runnerEnabled) return;
  let local = localFanOuts.get(deps);
  if (!local) {
    local = new LocalFanOut(deps);
    localFanOuts.set(deps, local);
  }
  local.kick();
}

/**
 * Waits until this process's local fan-out has taken every event committed so far (a pass waiting or
 * running). For callers that must see the jobs the events cause queued before they wait for the jobs
 * (the bench seed: `whenIdle` knows jobs, not the fan-out).
 */
export async function localFanOutSettled(deps: AppDeps): Promise<void> {
  await localFanOuts.get(deps)?.settled();
}

/** Waits for a running local fan-out and starts no more (server close, before storage closes). */
export async function stopLocalFanOut(deps: AppDeps): Promise<void> {
  await localFanOuts.get(deps)?.stop();
}

/**
 * Sends due webhook deliveries (per-entity order and the per-subscription cap live in the claim, see
 * store.ts). Runs while there is something to send, then ends; queued every pollIntervalMs (retries
 * coming due, other processes' deliveries) and by each dispatch that made deliveries.
 */
export const deliverWebhooksJob = defineJobKind<Record<string, never>>({
  kind: 'webhooks.deliver',
  everyMs: pollMs,
  hasWork: (deps) => hasDueDeliveries(deps.storage.db, iso(Date.now())),
  concurrency: () => 1,
  leaseMs: (deps) => deps.config.events.leaseMs,
  async run(ctx: JobContext) {
    const settings = ctx.deps.config.events;
    const sender = new DeliverySender(ctx.deps, settings, ctx.runnerId, ctx.signal);
    const until = Date.now() + DELIVER_JOB_MAX_MS;
    let sent = 0;
    while (!ctx.signal.aborted && Date.now() < until) {
      const started = await sender.deliverDue();
      sent += started;
      if (started === 0 && sender.sending === 0) break;
      await sender.nextFinished(settings.pollIntervalMs);
    }
    await sender.drain();
    if (ctx.signal.aborted) throw new JobInterrupted();
    return { sent };
  },
});

/** Retention of outbox events, delivery logs and mails. */
export const pruneEventsJob = defineJobKind<Record<string, never>>({
  kind: 'events.prune',
  everyMs: () => PRUNE_EVERY_MS,
  async run(ctx) {
    return pruneEventHistory(ctx.db, Date.now());
  },
});

/** The events kinds; createServer registers them unless config.events.workerEnabled is false. */
export const eventsJobKinds = [dispatchEventsJob, deliverWebhooksJob, pruneEventsJob];
