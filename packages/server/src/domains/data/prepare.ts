import { violation } from '../../http/errors.js';
import { isElevated, type RequestContext } from '../../http/context.js';
import { recordEvents } from '../events/index.js';
import { itemNotObject, payloadTooLarge } from './errors.js';
import type { CollectionDoc } from './model.js';
import { valueFitsType } from './model.js';
import { cleanValue, isPlainObject, MAX_ITEM_BYTES, SYSTEM_FIELDS, type ItemData, type Json } from './values.js';
import type { Item } from './common.js';
import { presentItem } from './present.js';

/** Turning caller data into stored data: checks, system fields stripped, references split off. */

export interface PreparedData {
  data: ItemData;
  /** MULTI_REFERENCE fields given in the item: field -> referenced ids (kept in data_references). */
  multiRefs: Map<string, string[]>;
}

const SYSTEM = new Set<string>(SYSTEM_FIELDS);

export function prepareData(collection: CollectionDoc, raw: unknown, argument: string): PreparedData {
  if (!isPlainObject(raw)) throw itemNotObject(collection.id);
  const fields = new Map(collection.fields.map((f) => [f.key, f]));
  const data: ItemData = {};
  const multiRefs = new Map<string, string[]>();
  for (const [key, value] of Object.entries(raw)) {
    // The server owns the system fields: whatever a caller sends for them is ignored (SECURITY 8.2.3).
    if (SYSTEM.has(key) || value === undefined) continue;
    if (key.startsWith('$') || key === '' || key.includes('.')) throw violation(`${argument}.${key}`, 'field names may not be empty, contain "." or start with "$"', 'FIELD_NOT_ALLOWED');
    const field = fields.get(key);
    let clean: Json = cleanValue(value, `${argument}.${key}`);
    if (field) {
      if (!valueFitsType(field.type, clean)) throw violation(`${argument}.${key}`, `must be a ${field.type} value`, 'FORMAT', { type: field.type });
      if (field.type === 'REFERENCE' && isPlainObject(clean)) clean = (clean as { _id: string })._id;
      if (field.type === 'MULTI_REFERENCE') {
        const ids = (clean as Json[]).map((v) => (typeof v === 'string' ? v : isPlainObject(v) && typeof v._id === 'string' ? v._id : undefined));
        if (ids.some((v) => v === undefined)) throw violation(`${argument}.${key}`, 'must list item ids or items with an _id', 'FORMAT');
        multiRefs.set(key, [...new Set(ids as string[])]);
        continue;
      }
    }
    data[key] = clean;
  }
  for (const f of collection.fields) {
    if (f.required && !f.systemField && f.type !== 'MULTI_REFERENCE' && (data[f.key] === undefined || data[f.key] === null)) {
      throw violation(`${argument}.${f.key}`, 'is required', 'REQUIRED_FIELD');
    }
  }
  if (JSON.stringify(data).length > MAX_ITEM_BYTES) throw payloadTooLarge(MAX_ITEM_BYTES);
  return { data, multiRefs };
}

export const DATA_ITEM_FQDN = 'wix.data.v2.data_item';

/** suppressHooks is honoured for the owner (and apps) only; for them no item events are written. */
export function hooksSuppressed(ctx: RequestContext, suppressHooks: unknown): boolean {
  return suppressHooks === true && isElevated(ctx.caller);
}

export async function itemEvent(ctx: RequestContext, suppressed: boolean, slug: 'created' | 'updated' | 'deleted', item: Item): Promise<void> {
  await itemEvents(ctx, suppressed, slug, [item]);
}

/** One outbox write for a whole bulk call (a few multi-row statements, not two per item). */
export async function itemEvents(ctx: RequestContext, suppressed: boolean, slug: 'created' | 'updated' | 'deleted', items: Item[]): Promise<void> {
  if (suppressed) return;
  await recordEvents(ctx, items.map((item) => ({ entityFqdn: DATA_ITEM_FQDN, slug, entityId: item.id, entity: presentItem(item), data: { dataCollectionId: item.collectionId } })));
}

export { isUniqueViolation } from '../../storage/errors.js';
