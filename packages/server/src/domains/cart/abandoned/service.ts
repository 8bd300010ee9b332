import { randomUUID } from 'node:crypto';
import type {
  AbandonedCheckoutActivityType, AbandonedCheckoutMetric, AbandonedCheckoutSearch, AbandonedCheckoutStatus, AftercareQuery,
  BulkDeleteAbandonedCheckoutsResponse, GetAbandonedCheckoutAnalyticsResponse,
} from '@vitrine/types/ecom-aftercare';
import type { AppDeps, BaseContext, RequestContext } from '../../../http/context.js';
import { conflict, notFound, violation } from '../../../http/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvents } from '../../events/index.js';
import { assertSiteServes, getSite, getSiteCached } from '../../sites/index.js';
import { currencyOf, divRound, formatMoney, parseMoney } from '../pricing/index.js';
import { ABANDONED_CHECKOUT_FQDN, type CheckoutSnapshot, type TrackedCheckout } from './model.js';
import { AFTERCARE_PAGING, runPagedQuery } from './paging.js';
import { checkoutUrlOf, presentAbandonedCheckout } from './present.js';
import {
  abandonedSortColumn, completeActive, deleteVisible, findByCheckout, findIdle, findVisible, markAbandoned, pruneFinished, queryVisible, saveActivities,
  SEARCH_COLUMNS, sumsByStatus, transition, upsertSnapshot,
} from './store.js';

export const ABANDONED_LIMITS = {
  /** Longest e-mail / id / name the tracker keeps from a snapshot (the cart domain validated them already). */
  trackedTextMax: 320,
  /** Activities one abandoned checkout holds; adding past it is refused. */
  activitiesMax: 100,
  /** Ids in one bulk delete. */
  bulkDeleteMax: 100,
  /** Characters of a search expression. */
  searchExpressionMax: 200,
  /** Rows the idle scan turns ABANDONED per statement, and batches per job run (the next run continues). */
  abandonBatch: 200,
  abandonBatchesPerRun: 20,
  /** Tracking rows that can never become abandoned checkouts are deleted after this long. */
  finishedRetentionMs: 30 * 24 * 60 * 60_000,
} as const;
const L = ABANDONED_LIMITS;

/** One outbox event as the events domain takes it. */
type DomainEvent = Parameters<typeof recordEvents>[1][number];

const notFoundError = (id: string) => notFound('ABANDONED_CHECKOUT_NOT_FOUND', `Abandoned checkout ${id} not found`, { abandonedCheckoutId: id });

function bounded(value: string | null | undefined): string | null {
  return value ? value.slice(0, L.trackedTextMax) : null;
}

function entityEvent(ctx: RequestContext, slug: 'created' | 'updated' | 'deleted', row: TrackedCheckout): DomainEvent {
  return { entityFqdn: ABANDONED_CHECKOUT_FQDN, slug, entityId: row.id, entity: presentAbandonedCheckout(row, ctx.origin) };
}

// ---------------------------------------------------------------------------------------------
// What the cart domain calls

/**
 * Records a checkout's latest state; the cart domain calls it in the transaction of every checkout
 * create and update. The idle clock restarts. An abandoned checkout touched again stays ABANDONED (its
 * buyer is back but has not bought yet) and gets an `updated` event; a completed one is not revived.
 */
export async function trackCheckoutActivity(ctx: RequestContext, snapshot: CheckoutSnapshot): Promise<void> {
  const currency = currencyOf(snapshot.total.currency, 'total.currency');
  const totalMinor = parseMoney(snapshot.total.amount, currency, 'total.amount');
  const contact = snapshot.details?.contactDetails;
  await inTransaction(ctx.db, async (trx) => {
    const row = await upsertSnapshot(trx, {
      id: randomUUID(),
      siteId: ctx.site.id,
      checkoutId: snapshot.checkoutId,
      cartId: snapshot.cartId,
      buyer: {
        email: bounded(snapshot.buyer.email), memberId: bounded(snapshot.buyer.memberId),
        visitorId: bounded(snapshot.buyer.visitorId), contactId: bounded(snapshot.buyer.contactId),
      },
      contactName: { first: bounded(contact?.firstName), last: bounded(contact?.lastName) },
      currency: currency.code,
      // Normalized to the currency's decimals, so sums in analytics are exact.
      totalAmount: formatMoney(totalMinor, currency),
      totalMinor,
      lineItemCount: Math.max(0, Math.trunc(snapshot.lineItemCount)),
      details: snapshot.details ?? null,
      now: new Date().toISOString(),
    });
    if (row?.status === 'ABANDONED') await recordEvents({ ...ctx, db: trx }, [entityEvent(ctx, 'updated', row)]);
  });
}

/**
 * The checkout became an order (the cart domain calls it in the order's transaction): an ABANDONED
 * checkout becomes RECOVERED (with `recovered` and `updated` events), an ACTIVE one COMPLETED.
 */
export async function markCheckoutCompleted(ctx: RequestContext, checkoutId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const now = new Date().toISOString();
    // The common case (a checkout completed while still ACTIVE) is one statement; the rest reads the row.
    if (await completeActive(trx, ctx.site.id, checkoutId, now)) return;
    const current = await findByCheckout(trx, ctx.site.id, checkoutId);
    if (!current) return;
    if (current.status === 'ACTIVE') {
      await transition(trx, ctx.site.id, current.id, 'ACTIVE', 'COMPLETED', {}, now);
      return;
    }
    if (current.status !== 'ABANDONED') return;
    const recovered = await transition(trx, ctx.site.id, current.id, 'ABANDONED', 'RECOVERED', { recoveredDate: now }, now);
    if (!recovered) return;
    const entity = presentAbandonedCheckout(recovered, ctx.origin);
    await recordEvents({ ...ctx, db: trx }, [
      { entityFqdn: ABANDONED_CHECKOUT_FQDN, slug: 'recovered', entityId: recovered.id, data: { abandonedCheckout: entity } },
      { entityFqdn: ABANDONED_CHECKOUT_FQDN, slug: 'updated', entityId: recovered.id, entity },
    ]);
  });
}

// ---------------------------------------------------------------------------------------------
// The idle scan

/**
 * Turns checkouts idle longer than the configured time ABANDONED, site by site, each batch in one
 * transaction with its `created` events. Bounded per run; the next run continues.
 */
export async function abandonIdleCheckouts(deps: AppDeps, jobId: string, signal: AbortSignal): Promise<{ abandoned: number; pruned: number }> {
  const db = deps.storage.db;
  const now = Date.now();
  const cutoff = new Date(now - deps.config.abandonedCheckouts.abandonAfterMs).toISOString();
  let abandoned = 0;
  for (let batch = 0; batch < L.abandonBatchesPerRun && !signal.aborted; batch++) {
    const idle = await findIdle(db, cutoff, L.abandonBatch);
    if (idle.length === 0) break;
    const bySite = new Map<string, string[]>();
    for (const r of idle) bySite.set(r.siteId, [...(bySite.get(r.siteId) ?? []), r.id]);
    for (const [siteId, ids] of bySite) {
      const site = await getSite(db, siteId);
      if (!site) continue;
      const ctx: RequestContext = {
        requestId: jobId, deps, db, dialect: deps.storage.dialect, caller: { kind: 'anonymous' },
        origin: deps.config.publicUrl ?? '', ip: '127.0.0.1', log: deps.log, site,
      };
      await inTransaction(db, async (trx) => {
        const rows = await markAbandoned(trx, siteId, ids, cutoff, new Date().toISOString());
        abandoned += rows.length;
        await recordEvents({ ...ctx, db: trx }, rows.map((row) => entityEvent(ctx, 'created', row)));
      });
    }
    if (idle.length < L.abandonBatch) break;
  }
  const pruned = await pruneFinished(db, new Date(now - L.finishedRetentionMs).toISOString());
  return { abandoned, pruned };
}

// ---------------------------------------------------------------------------------------------
// The owner API

export async function getAbandonedCheckout(ctx: RequestContext, id: string): Promise<TrackedCheckout> {
  const row = await findVisible(ctx.db, ctx.site.id, id);
  if (!row) throw notFoundError(id);
  return row;
}

export async function deleteAbandonedCheckout(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const row = await findVisible(trx, ctx.site.id, id);
    if (!row || (await deleteVisible(trx, ctx.site.id, [id])).length === 0) throw notFoundError(id);
    await recordEvents({ ...ctx, db: trx }, [entityEvent(ctx, 'deleted', row)]);
  });
}

/** Deletes each id that names an abandoned checkout of the site; the others are reported per item. */
export async function bulkDeleteAbandonedCheckouts(ctx: RequestContext, ids: string[]): Promise<BulkDeleteAbandonedCheckoutsResponse> {
  return inTransaction(ctx.db, async (trx) => {
    const unique = [...new Set(ids)];
    const rows = (await Promise.all(unique.map((id) => findVisible(trx, ctx.site.id, id)))).filter((r): r is TrackedCheckout => r !== undefined);
    const deleted = new Set(await deleteVisible(trx, ctx.site.id, rows.map((r) => r.id)));
    await recordEvents({ ...ctx, db: trx }, rows.filter((r) => deleted.has(r.id)).sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => entityEvent(ctx, 'deleted', r)));
    const reported = new Set<string>();
    const results = ids.map((id, originalIndex) => {
      // A repeated id is deleted once; its later copies are not found any more.
      const success = deleted.has(id) && !reported.has(id);
      reported.add(id);
      return {
        itemMetadata: success
          ? { id, originalIndex, success: true }
          : { id, originalIndex, success: false, error: { code: 'ABANDONED_CHECKOUT_NOT_FOUND', description: `Abandoned checkout ${id} not found`, data: {} } },
      };
    });
    const totalSuccesses = results.filter((r) => r.itemMetadata.success).length;
    return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
  });
}

export async function addAbandonedCheckoutActivity(ctx: RequestContext, id: string, type: AbandonedCheckoutActivityType): Promise<TrackedCheckout> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await findVisible(trx, ctx.site.id, id);
    if (!row) throw notFoundError(id);
    if (row.activities.length >= L.activitiesMax) {
      throw conflict('ACTIVITY_LIMIT_REACHED', `An abandoned checkout holds at most ${L.activitiesMax} activities`, { max: L.activitiesMax });
    }
    const now = new Date().toISOString();
    const saved = await saveActivities(trx, ctx.site.id, id, [...row.activities, { createdDate: now, type }], now);
    if (!saved) throw notFoundError(id);
    await recordEvents({ ...ctx, db: trx }, [entityEvent(ctx, 'updated', saved)]);
    return saved;
  });
}

export interface AbandonedPage { rows: TrackedCheckout[]; metadata: Awaited<ReturnType<typeof runPagedQuery>>['metadata'] }

type SearchState = { expression: string; fields: string[]; mode: 'OR' | 'AND' } | undefined;

async function pageOf(ctx: RequestContext, kind: string, argument: string, query: AftercareQuery | undefined, search: SearchState): Promise<AbandonedPage> {
  const { rows, metadata } = await runPagedQuery(ctx, { kind, argument, sortable: abandonedSortColumn }, query, search, (page, s) => queryVisible(ctx.db, {
    siteId: ctx.site.id, filter: page.filter, search: s, sort: page.sort, limit: page.limit, offset: page.offset,
    withTotal: page.withTotal, countCap: AFTERCARE_PAGING.countCap, dialect: ctx.dialect,
  }));
  return { rows, metadata };
}

export async function queryAbandonedCheckouts(ctx: RequestContext, query: AftercareQuery): Promise<AbandonedPage> {
  return pageOf(ctx, 'abandoned-checkouts.query', 'query', query, undefined);
}

/** A query plus a free-text search (every word, or any word with mode OR) over e-mail and names. */
export async function searchAbandonedCheckouts(ctx: RequestContext, search: AbandonedCheckoutSearch | undefined): Promise<AbandonedPage> {
  const expression = search?.search?.expression?.trim();
  const fields = search?.search?.fields?.length ? search.search.fields : Object.keys(SEARCH_COLUMNS);
  const state: SearchState = expression ? { expression, fields, mode: search?.search?.mode ?? 'AND' } : undefined;
  return pageOf(ctx, 'abandoned-checkouts.search', 'search', search, state);
}

const RATE_DECIMALS = 4;

/**
 * Counts and amounts of the site's abandoned checkouts abandoned within [startDate, endDate], in the
 * site currency (rows in another currency are left out): still recoverable (ABANDONED) versus
 * RECOVERED, the average recoverable value and the recovery rate. `metrics` picks fields; `statuses`
 * limits which rows count.
 */
export async function abandonedCheckoutAnalytics(
  ctx: RequestContext,
  input: { startDate: Date; endDate: Date; metrics?: AbandonedCheckoutMetric[] | undefined; statuses?: AbandonedCheckoutStatus[] | undefined },
): Promise<GetAbandonedCheckoutAnalyticsResponse> {
  if (input.startDate > input.endDate) throw violation('endDate', 'must not be before startDate', 'FORMAT');
  const currency = currencyOf(ctx.site.currency);
  const sums = await sumsByStatus(ctx.db, ctx.site.id, currency.code, input.startDate.toISOString(), input.endDate.toISOString());
  const counts = (status: AbandonedCheckoutStatus) => (!input.statuses?.length || input.statuses.includes(status) ? sums.get(status) : undefined) ?? { count: 0, minor: 0n };
  const recoverable = counts('ABANDONED');
  const recovered = counts('RECOVERED');
  const all = recoverable.count + recovered.count;
  const values: Required<Omit<GetAbandonedCheckoutAnalyticsResponse, 'currency'>> = {
    recoverableValue: formatMoney(recoverable.minor, currency),
    recoverableCheckoutCount: recoverable.count,
    averageRecoverableCheckoutValue: formatMoney(recoverable.count ? divRound(recoverable.minor, BigInt(recoverable.count), 'HALF_UP') : 0n, currency),
    recoveredValue: formatMoney(recovered.minor, currency),
    recoveredCheckoutCount: recovered.count,
    recoveryRate: all ? Number(divRound(BigInt(recovered.count) * 10n ** BigInt(RATE_DECIMALS), BigInt(all), 'HALF_UP')) / 10 ** RATE_DECIMALS : 0,
  };
  const METRIC_FIELD: Record<AbandonedCheckoutMetric, keyof typeof values> = {
    RECOVERABLE_VALUE: 'recoverableValue', RECOVERABLE_CHECKOUT_COUNT: 'recoverableCheckoutCount',
    AVERAGE_RECOVERABLE_CHECKOUT_VALUE: 'averageRecoverableCheckoutValue', RECOVERED_VALUE: 'recoveredValue',
    RECOVERED_CHECKOUT_COUNT: 'recoveredCheckoutCount', RECOVERY_RATE: 'recoveryRate',
  };
  if (!input.metrics?.length) return { currency: currency.code, ...values };
  const picked: GetAbandonedCheckoutAnalyticsResponse = { currency: currency.code };
  for (const m of input.metrics) Object.assign(picked, { [METRIC_FIELD[m]]: values[METRIC_FIELD[m]] });
  return picked;
}

/**
 * Where the recovery link of an abandoned checkout leads: its hosted checkout page. Public (the link
 * is opened from an e-mail, without credentials): the site comes from `metasiteId`, and the unguessable
 * abandoned-checkout id is the capability; the answer reveals only the checkout's page address, whose
 * page does its own checks.
 */
export async function recoveryUrl(ctx: BaseContext, id: string, metasiteId: string): Promise<string> {
  const site = await getSiteCached(ctx.db, metasiteId);
  if (!site) throw notFoundError(id);
  assertSiteServes(site);
  const row = await findVisible(ctx.db, site.id, id);
  if (!row) throw notFoundError(id);
  return checkoutUrlOf(row, ctx.origin);
}
