import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvents } from '../../events/index.js';
import { currencyOf, formatMoney, parseMoney } from '../pricing/index.js';
import { ABANDONED_CHECKOUT_FQDN, type CheckoutSnapshot, type TrackedCheckout } from './model.js';
import { presentAbandonedCheckout } from './present.js';
import { findByCheckout, transition, upsertSnapshot } from './store.js';

/** Longest e-mail / id the tracker stores from a snapshot (the cart domain validated them already). */
export const TRACKED_TEXT_MAX = 320;

function bounded(value: string | null | undefined): string | null {
  return value ? value.slice(0, TRACKED_TEXT_MAX) : null;
}

/** One outbox event as the events domain takes it. */
type DomainEvent = Parameters<typeof recordEvents>[1][number];

function updatedEvent(ctx: RequestContext, row: TrackedCheckout): DomainEvent {
  return { entityFqdn: ABANDONED_CHECKOUT_FQDN, slug: 'updated', entityId: row.id, entity: presentAbandonedCheckout(row, ctx.origin) };
}

/**
 * Records a checkout's latest state; the cart domain calls it in the transaction of every checkout
 * create and update. The idle clock restarts. An abandoned checkout touched again stays ABANDONED (its
 * buyer is back but has not bought yet) and gets an `updated` event; a completed one is not revived.
 */
export async function trackCheckoutActivity(ctx: RequestContext, snapshot: CheckoutSnapshot): Promise<void> {
  const currency = currencyOf(snapshot.total.currency, 'total.currency');
  // Normalized to the currency's decimals, so sums in analytics are exact.
  const totalAmount = formatMoney(parseMoney(snapshot.total.amount, currency, 'total.amount'), currency);
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
      currency: currency.code,
      totalAmount,
      lineItemCount: Math.max(0, Math.trunc(snapshot.lineItemCount)),
      details: snapshot.details ?? null,
      now: new Date().toISOString(),
    });
    if (row?.status === 'ABANDONED') await recordEvents({ ...ctx, db: trx }, [updatedEvent(ctx, row)]);
  });
}

/**
 * The checkout became an order (the cart domain calls it in the order's transaction): an ABANDONED
 * checkout becomes RECOVERED (with `recovered` and `updated` events), an ACTIVE one COMPLETED.
 */
export async function markCheckoutCompleted(ctx: RequestContext, checkoutId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const current = await findByCheckout(trx, ctx.site.id, checkoutId);
    if (!current) return;
    const now = new Date().toISOString();
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
