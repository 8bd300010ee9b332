/**
 * Pure edits of a stored line list, shared by the cart and the checkout: add (same item merges into one
 * line), change quantities (0 removes), remove. Callers have checked who may add custom lines.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationError, ValidationError } from '../../http/errors.js';
import { stableJson } from '../catalog/index.js';
import type { StoredLine } from './model.js';
import { CART_LIMITS, type CustomLineItemInput, type LineItemInput } from './schema.js';

const sameItem = (a: StoredLine, ref: NonNullable<LineItemInput['catalogReference']>) =>
  !a.custom && a.catalogReference?.catalogItemId === ref.catalogItemId && a.catalogReference.appId === ref.appId
  && stableJson(a.catalogReference.options ?? {}) === stableJson(ref.options ?? {});

function tooMany(field: string, description: string, max: number): ValidationError {
  return new ValidationError([{ field, description, violatedRule: 'MAX', data: { max } }]);
}

/** Adds lines; an item already in the list gets the quantities added to its line. */
export function addLines(current: StoredLine[], lineItems: LineItemInput[] = [], customLineItems: CustomLineItemInput[] = []): StoredLine[] {
  // Lines left as they are stay the same objects (a kept cart's are frozen and shared, kept-carts.ts); a changed line is a new one.
  const out = current.slice();
  lineItems.forEach((li, i) => {
    if (!li.catalogReference) throw new ValidationError([{ field: `lineItems[${i}].catalogReference`, description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} }]);
    const quantity = li.quantity ?? 1;
    const at = out.findIndex((l) => sameItem(l, li.catalogReference!));
    if (at >= 0) {
      const existing = out[at]!;
      if (existing.quantity + quantity > CART_LIMITS.quantityMax) throw tooMany(`lineItems[${i}].quantity`, `a line holds at most ${CART_LIMITS.quantityMax} units`, CART_LIMITS.quantityMax);
      out[at] = { ...existing, quantity: existing.quantity + quantity };
      return;
    }
    const ref = li.catalogReference;
    out.push({ id: randomUUID(), quantity, catalogReference: { catalogItemId: ref.catalogItemId, appId: ref.appId, ...(ref.options ? { options: ref.options } : {}) } });
  });
  customLineItems.forEach((c, i) => {
    const id = c.id ?? randomUUID();
    if (out.some((l) => l.id === id)) throw new ApplicationError(400, 'DUPLICATE_LINE_ITEM_ID', `Line item ${id} already exists`, { field: `customLineItems[${i}].id` });
    out.push({ id, quantity: c.quantity, custom: c });
  });
  if (out.length > CART_LIMITS.lineItems) throw tooMany('lineItems', `must have at most ${CART_LIMITS.lineItems} line items`, CART_LIMITS.lineItems);
  return out;
}

/** Sets quantities by line id; 0 removes the line. An unknown id, or one named twice, is refused. */
export function setQuantities(current: StoredLine[], changes: { id: string; quantity: number }[]): StoredLine[] {
  const byId = new Map(current.map((l) => [l.id, l]));
  const named = new Set<string>();
  changes.forEach((c, i) => {
    if (named.has(c.id)) throw new ValidationError([{ field: `lineItems[${i}].id`, description: 'names a line item given before in this call', violatedRule: 'FORMAT', data: {} }]);
    named.add(c.id);
    const line = byId.get(c.id);
    if (!line) throw new ApplicationError(400, 'LINE_ITEM_NOT_FOUND', `Line item ${c.id} not found`, { field: `lineItems[${i}].id`, lineItemId: c.id });
    byId.set(c.id, { ...line, quantity: c.quantity });
  });
  return current.map((l) => byId.get(l.id)!).filter((l) => l.quantity > 0);
}

/** Removes lines by id; ids not in the list are left alone. */
export function removeLines(current: StoredLine[], ids: string[]): StoredLine[] {
  const drop = new Set(ids);
  return current.filter((l) => !drop.has(l.id));
}

/** Lines of two carts as one (a visitor's cart into a member's at login): same items add up, capped. */
export function mergeLines(into: StoredLine[], from: StoredLine[]): StoredLine[] {
  const out = into.slice();
  for (const l of from) {
    const at = l.catalogReference && !l.custom ? out.findIndex((o) => sameItem(o, l.catalogReference!)) : -1;
    if (at >= 0) out[at] = { ...out[at]!, quantity: Math.min(CART_LIMITS.quantityMax, out[at]!.quantity + l.quantity) };
    else if (out.length < CART_LIMITS.lineItems && !out.some((o) => o.id === l.id)) out.push(l);
  }
  return out;
}
