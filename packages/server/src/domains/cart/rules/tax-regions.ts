import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, conflict, notFound, violation, ValidationError } from '../../../http/errors.js';
import { isUniqueViolation } from '../../../storage/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { checkWithEngine } from './engine-check.js';
import { TAX_REGION_FQDN } from './events.js';
import { MAX_MANUAL_RATES, MAX_TAX_REGIONS } from './limits.js';
import type { ManualRateRecord, ManualTaxRateInput, TaxRegionInput, TaxRegionRecord } from './model.js';
import { col, queryPage, type Listing, type Page } from './paging.js';
import { presentTaxRegion } from './present.js';
import { changedMeanwhile, expectRevision, samePathId } from './revision.js';
import type { QueryInput } from './schema.js';
import { taxGroupExists } from './tax-groups.js';
import {
  countManualRatesOutside, countTaxRegions, deleteTaxRegionRow, findTaxRegion, findTaxRegionAt, insertTaxRegion, listManualRates, listTaxRegionRows, replaceManualRates,
  updateTaxRegionRow,
} from './store-tax.js';
import type { Executor } from '../../../storage/database.js';

/**
 * Tax regions (ecom.taxRegions): a country, or one subdivision of it, where the store collects tax,
 * with whether its catalog prices include tax. Vitrine computes tax from manual rates only, so a
 * region's `appId` (its tax calculator) is empty; the rates are a Vitrine extension served under the
 * region (`/billing/v1/tax-regions/:id/manual-rates`).
 */

const regionNotFound = (id: string) => notFound('TAX_REGION_NOT_FOUND', `Tax region ${id} not found`, { taxRegionId: id });
const alreadyExists = (country: string, subdivision: string) =>
  conflict('ALREADY_EXISTS', 'A tax region for this place already exists', { country, subdivision });

/** Subdivisions are stored in full ISO 3166-2 form (`US-CA`), the form addresses carry. */
function fullSubdivision(country: string, subdivision: string | undefined, field: string): string {
  if (!subdivision) return '';
  if (!subdivision.includes('-')) return `${country}-${subdivision}`;
  if (!subdivision.startsWith(`${country}-`)) {
    throw new ApplicationError(400, 'INVALID_SUBDIVISION_FORMAT', `${field} must be a subdivision of ${country}`, { country, subdivision });
  }
  return subdivision;
}

function checkCalculator(appId: string | undefined): void {
  if (appId) throw new ApplicationError(400, 'CALCULATOR_ID_NOT_FOUND', 'Only manual rates are supported: leave appId empty', { appId });
}

function newRegion(input: TaxRegionInput, field: string, now: string): TaxRegionRecord {
  if (!input.country) throw violation(`${field}.country`, 'is required', 'REQUIRED_FIELD');
  checkCalculator(input.appId);
  return {
    id: randomUUID(), country: input.country, subdivision: fullSubdivision(input.country, input.subdivision, `${field}.subdivision`), appId: '',
    taxIncludedInPrice: input.taxIncludedInPrice ?? false, revision: 1, createdDate: now, updatedDate: now,
  };
}

/** Inserts one region (caller's transaction): ALREADY_EXISTS for a place already covered. */
async function insertRegion(ctx: RequestContext, trx: Executor, region: TaxRegionRecord): Promise<void> {
  if (await findTaxRegionAt(trx, ctx.site.id, region.country, region.subdivision)) throw alreadyExists(region.country, region.subdivision);
  try {
    await insertTaxRegion(trx, ctx.site.id, region);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(region.country, region.subdivision);
    throw error;
  }
  await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_REGION_FQDN, slug: 'created', entityId: region.id, entity: presentTaxRegion(region) });
}

async function assertRoom(trx: Executor, siteId: string, adding: number): Promise<void> {
  if (await countTaxRegions(trx, siteId) + adding > MAX_TAX_REGIONS) {
    throw conflict('MAX_TAX_REGIONS_REACHED', `A site has at most ${MAX_TAX_REGIONS} tax regions`, { max: MAX_TAX_REGIONS });
  }
}

export async function createTaxRegion(ctx: RequestContext, input: TaxRegionInput): Promise<TaxRegionRecord> {
  const region = newRegion(input, 'taxRegion', new Date().toISOString());
  return inTransaction(ctx.db, async (trx) => {
    await assertRoom(trx, ctx.site.id, 1);
    await insertRegion(ctx, trx, region);
    return region;
  });
}

/**
 * Creates each region on its own (a failed item does not stop the others), reporting per item. A
 * savepoint per item would differ by database, so items are checked first and inserted together.
 */
export async function bulkCreateTaxRegions(ctx: RequestContext, inputs: TaxRegionInput[]) {
  const now = new Date().toISOString();
  type Outcome = { region: TaxRegionRecord } | { error: { code: string; description: string; data: Record<string, unknown> } };
  return inTransaction(ctx.db, async (trx) => {
    const seen = new Set<string>();
    const outcomes: Outcome[] = [];
    for (const [i, input] of inputs.entries()) {
      try {
        const region = newRegion(input, `taxRegions[${i}]`, now);
        const key = `${region.country}/${region.subdivision}`;
        if (seen.has(key) || await findTaxRegionAt(trx, ctx.site.id, region.country, region.subdivision)) throw alreadyExists(region.country, region.subdivision);
        seen.add(key);
        outcomes.push({ region });
      } catch (error) {
        if (error instanceof ApplicationError) outcomes.push({ error: { code: error.code, description: error.description, data: error.data } });
        else if (error instanceof ValidationError) outcomes.push({ error: { code: 'INVALID_ARGUMENT', description: error.message, data: {} } });
        else throw error;
      }
    }
    const created = outcomes.flatMap((o) => ('region' in o ? [o.region] : []));
    await assertRoom(trx, ctx.site.id, created.length);
    for (const region of created) await insertRegion(ctx, trx, region);
    return outcomes;
  });
}

export async function getTaxRegion(ctx: RequestContext, id: string): Promise<TaxRegionRecord> {
  const region = await findTaxRegion(ctx.db, ctx.site.id, id);
  if (!region) throw regionNotFound(id);
  return region;
}

export async function updateTaxRegion(ctx: RequestContext, id: string, input: TaxRegionInput): Promise<TaxRegionRecord> {
  samePathId(input.id, id, 'taxRegion.id');
  checkCalculator(input.appId);
  return inTransaction(ctx.db, async (trx) => {
    const current = await findTaxRegion(trx, ctx.site.id, id);
    if (!current) throw regionNotFound(id);
    const expected = expectRevision(input.revision, current.revision, 'taxRegion.revision');
    const country = input.country ?? current.country;
    const subdivision = input.subdivision === undefined && country === current.country ? current.subdivision : fullSubdivision(country, input.subdivision, 'taxRegion.subdivision');
    const next: TaxRegionRecord = {
      ...current, country, subdivision, taxIncludedInPrice: input.taxIncludedInPrice ?? current.taxIncludedInPrice,
      revision: current.revision + 1, updatedDate: new Date().toISOString(),
    };
    const other = await findTaxRegionAt(trx, ctx.site.id, country, subdivision);
    if (other && other.id !== id) throw alreadyExists(country, subdivision);
    try {
      if (!(await updateTaxRegionRow(trx, ctx.site.id, next, expected))) throw changedMeanwhile(id);
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists(country, subdivision);
      throw error;
    }
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_REGION_FQDN, slug: 'updated', entityId: id, entity: presentTaxRegion(next) });
    return next;
  });
}

export async function deleteTaxRegion(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const current = await findTaxRegion(trx, ctx.site.id, id);
    if (!current || !(await deleteTaxRegionRow(trx, ctx.site.id, id))) throw regionNotFound(id);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_REGION_FQDN, slug: 'deleted', entityId: id, entity: presentTaxRegion(current) });
  });
}

const REGIONS: Listing<TaxRegionRecord> = {
  kind: 'cart-rules.tax-regions',
  fields: {
    id: { expr: col('id'), type: 'string' },
    country: { expr: col('country'), type: 'string' },
    subdivision: { expr: col('subdivision'), type: 'string' },
    appId: { expr: col('app_id'), type: 'string' },
    taxIncludedInPrice: { expr: col('tax_included_in_price'), type: 'boolean', storedAs01: true },
    createdDate: { expr: col('created_date'), type: 'date' },
    updatedDate: { expr: col('updated_date'), type: 'date' },
  },
  sortable: { id: col('id'), country: col('country'), subdivision: col('subdivision'), createdDate: col('created_date'), updatedDate: col('updated_date') },
  idColumn: col('id'),
  defaultSort: [{ fieldName: 'createdDate', order: 'ASC' }],
  list: listTaxRegionRows,
};

export function queryTaxRegions(ctx: RequestContext, query: QueryInput | undefined): Promise<Page<TaxRegionRecord>> {
  return queryPage(ctx, REGIONS, query);
}

// ---- manual rates (Vitrine extension) ----

export async function getManualRates(ctx: RequestContext, regionId: string): Promise<ManualRateRecord[]> {
  await getTaxRegion(ctx, regionId);
  return listManualRates(ctx.db, ctx.site.id, regionId);
}

/**
 * Replaces the region's manual rates. One rate per (group, jurisdiction); `taxGroupId` null is the
 * rate of every group without its own. Writes the region's `updated` event (its rates changed).
 */
export async function setManualRates(ctx: RequestContext, regionId: string, inputs: ManualTaxRateInput[]): Promise<ManualRateRecord[]> {
  const seen = new Set<string>();
  const rates: ManualRateRecord[] = [];
  for (const [i, m] of inputs.entries()) {
    const field = `manualRates[${i}]`;
    if (m.taxGroupId && !(await taxGroupExists(ctx, m.taxGroupId))) throw violation(`${field}.taxGroupId`, 'is not a tax group of this site', 'FORMAT');
    const jurisdiction = m.jurisdiction ?? '';
    const key = `${m.taxGroupId ?? ''}\u0000${jurisdiction}`;
    if (seen.has(key)) throw violation(field, 'repeats a tax group and jurisdiction of an earlier rate', 'FORMAT');
    seen.add(key);
    rates.push({
      id: randomUUID(), taxRegionId: regionId, taxGroupId: m.taxGroupId ?? null, taxRate: m.taxRate, taxName: m.taxName, taxType: m.taxType ?? null,
      jurisdiction, jurisdictionType: m.jurisdictionType ?? 'UNDEFINED',
    });
  }
  return inTransaction(ctx.db, async (trx) => {
    const region = await findTaxRegion(trx, ctx.site.id, regionId);
    if (!region) throw regionNotFound(regionId);
    checkWithEngine(ctx, {
      tax: { regions: [{ id: region.id, country: region.country, subdivision: region.subdivision || null, taxIncludedInPrice: region.taxIncludedInPrice }], manualTaxMappings: rates },
      shippingAddress: { country: region.country, subdivision: region.subdivision || null },
    }, 'tax.manualTaxMappings', 'manualRates');
    if (await countManualRatesOutside(trx, ctx.site.id, regionId) + rates.length > MAX_MANUAL_RATES) {
      throw conflict('MAX_MANUAL_RATES_REACHED', `A site has at most ${MAX_MANUAL_RATES} manual tax rates`, { max: MAX_MANUAL_RATES });
    }
    await replaceManualRates(trx, ctx.site.id, regionId, rates);
    const next = { ...region, revision: region.revision + 1, updatedDate: new Date().toISOString() };
    if (!(await updateTaxRegionRow(trx, ctx.site.id, next, region.revision))) throw changedMeanwhile(regionId);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_REGION_FQDN, slug: 'updated', entityId: regionId, entity: presentTaxRegion(next), data: { manualRatesChanged: true } });
    return rates;
  });
}
