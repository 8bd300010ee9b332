/**
 * What only the store owner (or an app) may set on a cart or checkout: custom lines, which carry
 * their own prices; merchant discounts; a checkout URL. Each is checked here before anything stores
 * it: a stored value the pricing engine refuses would make every later read of the cart fail.
 */
import { isElevated, type RequestContext } from '../../http/context.js';
import { ApplicationError } from '../../http/errors.js';
import { currencyOf, parseMoney, readMerchantDiscount } from './pricing/index.js';
import type { MerchantDiscountInput, StoredLine } from './model.js';
import type { CustomLineItemInput } from './schema.js';

export function requireElevated(ctx: RequestContext, what: string): void {
  if (!isElevated(ctx.caller)) throw new ApplicationError(403, 'PERMISSION_DENIED', `Only the store owner may set ${what}`);
}

/** Custom lines: owners only, their prices amounts of the store's currency (not negative, its decimals at most). */
export function checkCustomLines(ctx: RequestContext, items: CustomLineItemInput[] | undefined): void {
  if (!items?.length) return;
  requireElevated(ctx, 'custom line items');
  const currency = currencyOf(ctx.site.currency);
  items.forEach((item, i) => {
    parseMoney(item.price, currency, `customLineItems[${i}].price`);
    if (item.fullPrice != null) parseMoney(item.fullPrice, currency, `customLineItems[${i}].fullPrice`);
  });
}

/** A checkout URL other than the hosted page: owners only (clearing it is anyone's). */
export function checkCheckoutUrl(ctx: RequestContext, url: string | null | undefined): void {
  if (url) requireElevated(ctx, 'a checkout URL');
}

/** Merchant discounts (callers have required an owner) as the engine will read them, on the lines the cart will have. */
export function checkMerchantDiscounts(ctx: RequestContext, discounts: MerchantDiscountInput[], lines: StoredLine[]): void {
  const currency = currencyOf(ctx.site.currency);
  const ids = new Set(lines.map((l) => l.id));
  discounts.forEach((m, i) => readMerchantDiscount(m, ids, currency, `merchantDiscounts[${i}]`));
}

/**
 * A cart or checkout with fewer lines. Its merchant discounts follow: each keeps the lines still
 * there, and one that was for removed lines only goes (with no lines it would discount the whole cart).
 */
export function withFewerLines<D extends { lineItems: StoredLine[]; merchantDiscounts: MerchantDiscountInput[] }>(doc: D, lineItems: StoredLine[]): D {
  return { ...doc, lineItems, merchantDiscounts: discountsOnLines(doc.merchantDiscounts, lineItems) };
}

function discountsOnLines(discounts: MerchantDiscountInput[], lines: StoredLine[]): MerchantDiscountInput[] {
  if (discounts.length === 0) return discounts;
  const ids = new Set(lines.map((l) => l.id));
  return discounts.flatMap((m) => {
    if (!m.lineItemIds?.length) return [m];
    const kept = m.lineItemIds.filter((id) => ids.has(id));
    if (kept.length === m.lineItemIds.length) return [m];
    return kept.length ? [{ ...m, lineItemIds: kept }] : [];
  });
}
