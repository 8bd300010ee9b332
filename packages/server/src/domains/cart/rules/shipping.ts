import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { conflict, notFound, violation } from '../../../http/errors.js';
import type { Executor } from '../../../storage/database.js';
import { inTransaction } from '../../../storage/transaction.js';
import { MAX_SHIPPING_REGIONS } from './limits.js';
import type { ShippingDestination, ShippingRegionInput, ShippingRegionRecord } from './model.js';
import { checkWithEngine } from './engine-check.js';
import { shippingRegionToEngine } from './shipping-map.js';
import { changedMeanwhile, expectRevision } from './revision.js';
import { bumpPricingVersion } from './store-version.js';
import { deleteShippingRegionRow, findShippingRegion, insertShippingRegion, listShippingRegionRows, updateShippingRegionRow } from './store.js';

/**
 * Shipping regions (a Vitrine extension, `/ecom/v1/shipping-regions`): where the store ships and the
 * options buyers there choose from. Each region is priced once by the engine on save, so a region
 * that saved always prices.
 */

const regionNotFound = (id: string) => notFound('SHIPPING_REGION_NOT_FOUND', `Shipping region ${id} not found`, { shippingRegionId: id });

/**
 * Subdivisions in full ISO 3166-2 form (`CA` under `US` is stored `US-CA`, the form addresses carry).
 * A country appears once in a region and a subdivision once in its country: a repeat is a mistake
 * (which of two entries would an address match?), refused rather than merged.
 */
function normalizedDestinations(destinations: ShippingDestination[]): ShippingDestination[] {
  const countries = new Set<string>();
  return destinations.map((d, i) => {
    if (countries.has(d.country)) throw violation(`shippingRegion.destinations[${i}].country`, `${d.country} is already a destination of this region`, 'FORMAT');
    countries.add(d.country);
    if (!d.subdivisions?.length) return { country: d.country };
    const subdivisions = d.subdivisions.map((s, k) => {
      const full = s.includes('-') ? s : `${d.country}-${s}`;
      if (!full.startsWith(`${d.country}-`)) throw violation(`shippingRegion.destinations[${i}].subdivisions[${k}]`, `must be a subdivision of ${d.country}`, 'FORMAT');
      return full;
    });
    subdivisions.forEach((s, k) => {
      if (subdivisions.indexOf(s) !== k) throw violation(`shippingRegion.destinations[${i}].subdivisions[${k}]`, `${s} is listed twice`, 'FORMAT');
    });
    return { country: d.country, subdivisions };
  });
}

/** What an address can match: a whole country (`US`) or one subdivision (`US-CA`). */
function destinationKeys(region: ShippingRegionRecord): string[] {
  return region.destinations.flatMap((d) => d.subdivisions?.length ? d.subdivisions : [d.country]);
}

/**
 * Each place belongs to one region: two regions both covering the whole of a country (or both naming
 * the same subdivision) would leave the buyer's options to an arbitrary tie-break. A region naming a
 * subdivision may sit beside one covering its whole country: the specific one wins there.
 */
function refuseTakenDestinations(region: ShippingRegionRecord, others: ShippingRegionRecord[]): void {
  const taken = new Map<string, ShippingRegionRecord>();
  for (const other of others) if (other.id !== region.id) for (const key of destinationKeys(other)) taken.set(key, other);
  for (const key of destinationKeys(region)) {
    const owner = taken.get(key);
    if (owner) {
      throw conflict('SHIPPING_DESTINATION_TAKEN', `${key} already belongs to shipping region "${owner.name}"`, { destination: key, shippingRegionId: owner.id });
    }
  }
}

function checkRegion(ctx: RequestContext, region: ShippingRegionRecord): void {
  const codes = new Set<string>();
  region.options.forEach((o, i) => {
    if (codes.has(o.code)) throw violation(`shippingRegion.options[${i}].code`, 'must be unique in its region', 'FORMAT');
    codes.add(o.code);
  });
  // Price the region for an address inside it, so every option's rate, ranges and window are read.
  const first = region.destinations[0]!;
  checkWithEngine(ctx, {
    shipping: { regions: [shippingRegionToEngine(region)] },
    shippingAddress: { country: first.country, subdivision: first.subdivisions?.[0] ?? null },
  }, 'shipping.regions[0]', 'shippingRegion');
}

/**
 * The count and destination checks read the site's other regions: raising the pricing version first
 * (which the write does anyway) holds its row lock on PostgreSQL until the commit, so two concurrent
 * region writes check one after the other (SQLite has one writer).
 */
const serializeRegionWrites = (db: Executor, siteId: string) => bumpPricingVersion(db, siteId);

export async function createShippingRegion(ctx: RequestContext, input: ShippingRegionInput): Promise<ShippingRegionRecord> {
  if (!input.name) throw violation('shippingRegion.name', 'is required', 'REQUIRED_FIELD');
  if (!input.destinations) throw violation('shippingRegion.destinations', 'is required', 'REQUIRED_FIELD');
  const now = new Date().toISOString();
  const region: ShippingRegionRecord = {
    id: randomUUID(), name: input.name, destinations: normalizedDestinations(input.destinations), options: input.options ?? [], revision: 1, createdDate: now, updatedDate: now,
  };
  checkRegion(ctx, region);
  return inTransaction(ctx.db, async (trx) => {
    await serializeRegionWrites(trx, ctx.site.id);
    const existing = await listShippingRegionRows(trx, ctx.site.id, MAX_SHIPPING_REGIONS);
    if (existing.length >= MAX_SHIPPING_REGIONS) {
      throw conflict('MAX_SHIPPING_REGIONS_REACHED', `A site has at most ${MAX_SHIPPING_REGIONS} shipping regions`, { max: MAX_SHIPPING_REGIONS });
    }
    refuseTakenDestinations(region, existing);
    // Regions list in the order they were made: one made in the same millisecond as the last (a script,
    // the demo seed) is dated a millisecond later instead of being ordered by its random id.
    const last = existing.at(-1)?.createdDate;
    const created = last !== undefined && last >= now ? new Date(Date.parse(last) + 1).toISOString() : now;
    const placed = { ...region, createdDate: created, updatedDate: created };
    await insertShippingRegion(trx, ctx.site.id, placed);
    return placed;
  });
}

export async function getShippingRegion(ctx: RequestContext, id: string): Promise<ShippingRegionRecord> {
  const region = await findShippingRegion(ctx.db, ctx.site.id, id);
  if (!region) throw regionNotFound(id);
  return region;
}

export function listShippingRegions(ctx: RequestContext): Promise<ShippingRegionRecord[]> {
  return listShippingRegionRows(ctx.db, ctx.site.id, MAX_SHIPPING_REGIONS);
}

export async function updateShippingRegion(ctx: RequestContext, id: string, input: ShippingRegionInput): Promise<ShippingRegionRecord> {
  return inTransaction(ctx.db, async (trx) => {
    if (input.destinations) await serializeRegionWrites(trx, ctx.site.id);
    const current = await findShippingRegion(trx, ctx.site.id, id);
    if (!current) throw regionNotFound(id);
    const expected = expectRevision(input.revision, current.revision, 'shippingRegion.revision');
    const next: ShippingRegionRecord = {
      ...current, name: input.name ?? current.name, destinations: input.destinations ? normalizedDestinations(input.destinations) : current.destinations, options: input.options ?? current.options,
      revision: current.revision + 1, updatedDate: new Date().toISOString(),
    };
    checkRegion(ctx, next);
    if (input.destinations) refuseTakenDestinations(next, await listShippingRegionRows(trx, ctx.site.id, MAX_SHIPPING_REGIONS));
    if (!(await updateShippingRegionRow(trx, ctx.site.id, next, expected))) throw changedMeanwhile(id);
    return next;
  });
}

export async function deleteShippingRegion(ctx: RequestContext, id: string): Promise<void> {
  if (!(await deleteShippingRegionRow(ctx.db, ctx.site.id, id))) throw regionNotFound(id);
}
