import type { Executor } from '../../../storage/database.js';
import type { Bool01 } from '../../../storage/schema.js';
import type { JurisdictionType, ManualRateRecord, TaxGroupRecord, TaxRegionRecord } from './model.js';
import { countRows, deleteRow, findRow, pageRows, type PageQuery } from './store-rows.js';
import { bumpPricingVersion } from './store-version.js';

/** SQL of tax groups, tax regions and their manual rates. Every statement is scoped by `site_id`. */

interface TaxGroupsTable { id: string; site_id: string; name: string; revision: number; created_date: string; updated_date: string }
interface TaxRegionsTable {
  id: string; site_id: string; country: string; subdivision: string; app_id: string; tax_included_in_price: Bool01;
  revision: number; created_date: string; updated_date: string;
}
interface TaxManualRatesTable {
  id: string; site_id: string; tax_region_id: string; tax_group_key: string; tax_rate: string; tax_name: string;
  tax_type: string | null; jurisdiction: string; jurisdiction_type: string;
}

declare module '../../../storage/schema.js' {
  interface Database {
    tax_groups: TaxGroupsTable;
    tax_regions: TaxRegionsTable;
    tax_manual_rates: TaxManualRatesTable;
  }
}

// ---- tax groups ----

const groupFromRow = (r: TaxGroupsTable): TaxGroupRecord => ({ id: r.id, name: r.name, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date });

export async function insertTaxGroup(db: Executor, siteId: string, g: TaxGroupRecord): Promise<void> {
  await db.insertInto('tax_groups').values({ id: g.id, site_id: siteId, name: g.name, revision: g.revision, created_date: g.createdDate, updated_date: g.updatedDate }).execute();
}

export async function updateTaxGroupRow(db: Executor, siteId: string, g: TaxGroupRecord, expected: number): Promise<boolean> {
  const r = await db.updateTable('tax_groups').set({ name: g.name, revision: g.revision, updated_date: g.updatedDate })
    .where('site_id', '=', siteId).where('id', '=', g.id).where('revision', '=', expected).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findTaxGroup(db: Executor, siteId: string, id: string): Promise<TaxGroupRecord | undefined> {
  const row = await findRow(db, 'tax_groups', siteId, id);
  return row ? groupFromRow(row) : undefined;
}

export const deleteTaxGroupRow = (db: Executor, siteId: string, id: string) => deleteRow(db, 'tax_groups', siteId, id);
export const countTaxGroups = (db: Executor, siteId: string) => countRows(db, 'tax_groups', siteId);
export const listTaxGroupRows = async (db: Executor, siteId: string, q: PageQuery) => (await pageRows(db, 'tax_groups', siteId, q)).map(groupFromRow);

// ---- tax regions ----

const regionFromRow = (r: TaxRegionsTable): TaxRegionRecord => ({
  id: r.id, country: r.country, subdivision: r.subdivision, appId: r.app_id, taxIncludedInPrice: r.tax_included_in_price === 1,
  revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
});

function regionColumns(t: TaxRegionRecord) {
  return { country: t.country, subdivision: t.subdivision, app_id: t.appId, tax_included_in_price: (t.taxIncludedInPrice ? 1 : 0) as Bool01, revision: t.revision, updated_date: t.updatedDate };
}

export async function insertTaxRegion(db: Executor, siteId: string, t: TaxRegionRecord): Promise<void> {
  await db.insertInto('tax_regions').values({ id: t.id, site_id: siteId, created_date: t.createdDate, ...regionColumns(t) }).execute();
  await bumpPricingVersion(db, siteId);
}

export async function updateTaxRegionRow(db: Executor, siteId: string, t: TaxRegionRecord, expected: number): Promise<boolean> {
  const r = await db.updateTable('tax_regions').set(regionColumns(t))
    .where('site_id', '=', siteId).where('id', '=', t.id).where('revision', '=', expected).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await bumpPricingVersion(db, siteId);
  return true;
}

export async function findTaxRegion(db: Executor, siteId: string, id: string): Promise<TaxRegionRecord | undefined> {
  const row = await findRow(db, 'tax_regions', siteId, id);
  return row ? regionFromRow(row) : undefined;
}

export async function findTaxRegionAt(db: Executor, siteId: string, country: string, subdivision: string): Promise<TaxRegionRecord | undefined> {
  const row = await db.selectFrom('tax_regions').selectAll().where('site_id', '=', siteId).where('country', '=', country).where('subdivision', '=', subdivision).executeTakeFirst();
  return row ? regionFromRow(row) : undefined;
}

/** Deletes the region and its manual rates. */
export async function deleteTaxRegionRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  await db.deleteFrom('tax_manual_rates').where('site_id', '=', siteId).where('tax_region_id', '=', id).execute();
  return deleteRow(db, 'tax_regions', siteId, id);
}

export const countTaxRegions = (db: Executor, siteId: string) => countRows(db, 'tax_regions', siteId);
export const listTaxRegionRows = async (db: Executor, siteId: string, q: PageQuery) => (await pageRows(db, 'tax_regions', siteId, q)).map(regionFromRow);

export async function listAllTaxRegions(db: Executor, siteId: string, max: number): Promise<TaxRegionRecord[]> {
  const rows = await db.selectFrom('tax_regions').selectAll().where('site_id', '=', siteId).orderBy('created_date').orderBy('id').limit(max).execute();
  return rows.map(regionFromRow);
}

// ---- manual rates ----

const rateFromRow = (r: TaxManualRatesTable): ManualRateRecord => ({
  id: r.id, taxRegionId: r.tax_region_id, taxGroupId: r.tax_group_key === '' ? null : r.tax_group_key, taxRate: r.tax_rate,
  taxName: r.tax_name, taxType: r.tax_type, jurisdiction: r.jurisdiction, jurisdictionType: r.jurisdiction_type as JurisdictionType,
});

/** Every manual rate of the site (or of one region), in a stable order. */
export async function listManualRates(db: Executor, siteId: string, regionId?: string): Promise<ManualRateRecord[]> {
  let query = db.selectFrom('tax_manual_rates').selectAll().where('site_id', '=', siteId);
  if (regionId !== undefined) query = query.where('tax_region_id', '=', regionId);
  return (await query.orderBy('tax_region_id').orderBy('tax_group_key').orderBy('jurisdiction').orderBy('id').execute()).map(rateFromRow);
}

/** Replaces the region's rates with `rates` (one statement to clear, one to insert). */
export async function replaceManualRates(db: Executor, siteId: string, regionId: string, rates: ManualRateRecord[]): Promise<void> {
  await db.deleteFrom('tax_manual_rates').where('site_id', '=', siteId).where('tax_region_id', '=', regionId).execute();
  await bumpPricingVersion(db, siteId);
  if (rates.length === 0) return;
  await db.insertInto('tax_manual_rates').values(rates.map((m) => ({
    id: m.id, site_id: siteId, tax_region_id: regionId, tax_group_key: m.taxGroupId ?? '', tax_rate: m.taxRate, tax_name: m.taxName,
    tax_type: m.taxType, jurisdiction: m.jurisdiction, jurisdiction_type: m.jurisdictionType,
  }))).execute();
}

/** Clears the group's mappings in every region (the group is being deleted). */
export async function deleteManualRatesOfGroup(db: Executor, siteId: string, groupId: string): Promise<void> {
  await db.deleteFrom('tax_manual_rates').where('site_id', '=', siteId).where('tax_group_key', '=', groupId).execute();
  await bumpPricingVersion(db, siteId);
}

/** Manual rates of the site outside one region (the site-wide bound is checked before replacing that region's). */
export async function countManualRatesOutside(db: Executor, siteId: string, regionId: string): Promise<number> {
  const r = await db.selectFrom('tax_manual_rates').select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('site_id', '=', siteId).where('tax_region_id', '!=', regionId).executeTakeFirstOrThrow();
  return Number(r.n);
}
