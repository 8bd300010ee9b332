import type { Selectable } from 'kysely';
import type { Executor } from '../../../storage/database.js';
import { readJson, toJson } from '../../../storage/dialect.js';
import type { AbandonedCheckoutActivity } from '@vitrine/types/ecom-aftercare';
import type { CheckoutDetails, TrackedCheckout, TrackingStatus } from './model.js';

interface AbandonedCheckoutsTable {
  id: string;
  site_id: string;
  checkout_id: string;
  cart_id: string | null;
  status: TrackingStatus;
  buyer_email: string | null;
  buyer_member_id: string | null;
  buyer_visitor_id: string | null;
  buyer_contact_id: string | null;
  currency: string;
  total_amount: string;
  line_item_count: number;
  details: unknown;
  activities: unknown;
  last_activity_date: string;
  abandoned_date: string | null;
  recovered_date: string | null;
  created_date: string;
  updated_date: string;
}

declare module '../../../storage/schema.js' {
  interface Database {
    abandoned_checkouts: AbandonedCheckoutsTable;
  }
}

type Row = Selectable<AbandonedCheckoutsTable>;

function toTracked(r: Row): TrackedCheckout {
  return {
    id: r.id, siteId: r.site_id, checkoutId: r.checkout_id, cartId: r.cart_id, status: r.status,
    buyer: { email: r.buyer_email, memberId: r.buyer_member_id, visitorId: r.buyer_visitor_id, contactId: r.buyer_contact_id },
    currency: r.currency, totalAmount: r.total_amount, lineItemCount: r.line_item_count,
    details: r.details == null ? null : readJson<CheckoutDetails>(r.details),
    activities: readJson<AbandonedCheckoutActivity[]>(r.activities),
    lastActivityDate: r.last_activity_date, abandonedDate: r.abandoned_date, recoveredDate: r.recovered_date,
    createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

export interface TrackedSnapshotRow {
  id: string;
  siteId: string;
  checkoutId: string;
  cartId: string | null;
  buyer: TrackedCheckout['buyer'];
  currency: string;
  totalAmount: string;
  lineItemCount: number;
  details: CheckoutDetails | null;
  now: string;
}

/**
 * Records the latest state of a checkout in one statement (safe against a concurrent first report of
 * the same checkout on both databases). A COMPLETED or RECOVERED checkout is left as it is: its story is
 * over. An ABANDONED one keeps its status (only completing it recovers it). Answers the row as stored,
 * or undefined when nothing was written.
 */
export async function upsertSnapshot(db: Executor, s: TrackedSnapshotRow): Promise<TrackedCheckout | undefined> {
  const values = {
    cart_id: s.cartId,
    buyer_email: s.buyer.email, buyer_member_id: s.buyer.memberId, buyer_visitor_id: s.buyer.visitorId, buyer_contact_id: s.buyer.contactId,
    currency: s.currency, total_amount: s.totalAmount, line_item_count: s.lineItemCount,
    details: s.details == null ? null : toJson(s.details),
    last_activity_date: s.now, updated_date: s.now,
  };
  const row = await db.insertInto('abandoned_checkouts')
    .values({ id: s.id, site_id: s.siteId, checkout_id: s.checkoutId, status: 'ACTIVE', activities: toJson([]), abandoned_date: null, recovered_date: null, created_date: s.now, ...values })
    .onConflict((oc) => oc.columns(['site_id', 'checkout_id']).doUpdateSet(values).where('abandoned_checkouts.status', 'in', ['ACTIVE', 'ABANDONED']))
    .returningAll()
    .executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

export async function findByCheckout(db: Executor, siteId: string, checkoutId: string): Promise<TrackedCheckout | undefined> {
  const row = await db.selectFrom('abandoned_checkouts').selectAll().where('site_id', '=', siteId).where('checkout_id', '=', checkoutId).executeTakeFirst();
  return row ? toTracked(row) : undefined;
}

/** Sets a new status on a row that still has `from` (guarded, so two completions cannot both win). */
export async function transition(db: Executor, siteId: string, id: string, from: TrackingStatus, to: TrackingStatus, patch: { recoveredDate?: string; abandonedDate?: string }, now: string): Promise<TrackedCheckout | undefined> {
  const row = await db.updateTable('abandoned_checkouts')
    .set({
      status: to, updated_date: now,
      ...(patch.recoveredDate ? { recovered_date: patch.recoveredDate } : {}),
      ...(patch.abandonedDate ? { abandoned_date: patch.abandonedDate } : {}),
    })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  return row ? toTracked(row) : undefined;
}
