import type { RequestContext } from '../../http/context.js';
import { conflict } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { recordEvent } from '../events/index.js';
import { ORDER_NUMBER_MAX } from './limits.js';
import type { OrdersSettings, OrdersSettingsInput } from './model.js';
import { ORDERS_SETTINGS_FQDN } from './record.js';
import { findSiteRow, maxOrderNumber, setOrderCounter, updateSettingsRow } from './store.js';

/** Orders settings of a site (when stock is taken) and its order-number counter. */

export async function getOrdersSettings(ctx: RequestContext): Promise<OrdersSettings> {
  const r = await findSiteRow(ctx.db, ctx.site.id);
  return { inventoryUpdateTrigger: r.inventoryUpdateTrigger, createInvoice: r.createInvoice, createdDate: r.createdDate, updatedDate: r.updatedDate };
}

/** Changes the settings and writes the settings-updated event in the same transaction. */
export async function updateOrdersSettings(ctx: RequestContext, input: OrdersSettingsInput): Promise<OrdersSettings> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await updateSettingsRow(trx, ctx.site.id, {
      ...(input.inventoryUpdateTrigger ? { inventoryUpdateTrigger: input.inventoryUpdateTrigger } : {}),
      ...(input.createInvoice !== undefined && input.createInvoice !== null ? { createInvoice: input.createInvoice } : {}),
    }, new Date().toISOString());
    const settings = await getOrdersSettings(tctx);
    await recordEvent(tctx, { entityFqdn: ORDERS_SETTINGS_FQDN, slug: 'updated', entityId: ctx.site.id, entity: settings });
    return settings;
  });
}

/**
 * Sets the number the next order follows. Lower than now only with allowLowerCounter, and never
 * below the highest number in use (numbers stay unique).
 */
export async function setOrderNumberCounter(ctx: RequestContext, counter: number, allowLower: boolean): Promise<{ oldCounter: string; newCounter: string }> {
  return inTransaction(ctx.db, async (trx) => {
    const current = (await findSiteRow(trx, ctx.site.id)).lastNumber;
    if (counter < current && !allowLower) {
      throw conflict('COUNTER_LOWER_THAN_CURRENT', `The counter is at ${current}; pass allowLowerCounter to lower it`, { current: String(current) });
    }
    const used = await maxOrderNumber(trx, ctx.site.id);
    if (counter < used && counter < current) {
      throw conflict('COUNTER_BELOW_USED_NUMBER', `Order number ${used} is in use; the counter cannot go below it`, { maxUsed: String(used) });
    }
    if (counter > ORDER_NUMBER_MAX) throw conflict('COUNTER_TOO_HIGH', `The counter goes up to ${ORDER_NUMBER_MAX}`);
    const old = await setOrderCounter(trx, ctx.dialect, ctx.site.id, counter);
    return { oldCounter: String(old), newCounter: String(counter) };
  });
}
