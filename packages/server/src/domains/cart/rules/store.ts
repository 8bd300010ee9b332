import { sql } from 'kysely';
import type { Executor } from '../../../storage/database.js';
import { lockForUpdate, readJson, toJson, type DialectName } from '../../../storage/dialect.js';
import type { Bool01 } from '../../../storage/schema.js';
import { preparedQuery } from '../../../storage/prepared.js';
import { countRows, deleteRow, findRow, pageRows, type PageQuery } from './store-rows.js';
import { bumpPricingVersion } from './store-version.js';
import type {
  CouponRecord, DiscountRuleRecord, PricingSettings, ShippingRegionRecord, SiteSettingsRecord, StoredCheckoutSettings,
} from './model.js';

/**
 * SQL of discount rules, coupons, shipping regions and the per-site settings row (tax tables are in
 * store-tax.ts). Every statement is scoped by `site_id`.
 */

interface DiscountRulesTable {
  id: string; site_id: string; name: string; active: Bool01; start_date: string | null; end_date: string | null;
  usage_count: number; doc: unknown; revision: number; created_date: string; updated_date: string;
}
interface CouponsTable {
  id: string; site_id: string; code: string; code_key: string; name: string; active: Bool01; start_time: string;
  expiration_time: string | null; usage_limit: number | null; number_of_usages: number; doc: unknown; created_date: string; updated_date: string;
}
interface ShippingRegionsTable {
  id: string; site_id: string; name: string; doc: unknown; revision: number; created_date: string; updated_date: string;
}
interface CartSiteSettingsTable {
  site_id: string; checkout_settings: unknown; pricing_settings: unknown; created_date: string; updated_date: string;
}
interface CartRulesSecretsTable { name: string; value: string }

declare module '../../../storage/schema.js' {
  interface Database {
    discount_rules: DiscountRulesTable;
    coupons: CouponsTable;
    shipping_regions: ShippingRegionsTable;
    cart_site_settings: CartSiteSettingsTable;
    cart_rules_secrets: CartRulesSecretsTable;
  }
}


const b01 = (v: boolean): Bool01 => (v ? 1 : 0);

export async function findSecret(db: Executor, name: string): Promise<string> {
  const row = await db.selectFrom('cart_rules_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

// ---- discount rules ----

interface RuleDoc { trigger: DiscountRuleRecord['trigger']; activeTimeInfo: DiscountRuleRecord['activeTimeInfo']; discounts: DiscountRuleRecord['discounts'] }

function ruleFromRow(r: DiscountRulesTable): DiscountRuleRecord {
  const doc = readJson<RuleDoc>(r.doc);
  return {
    id: r.id, name: r.name, active: r.active === 1, trigger: doc.trigger, activeTimeInfo: doc.activeTimeInfo, discounts: doc.discounts,
    usageCount: r.usage_count, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

function ruleColumns(rule: DiscountRuleRecord) {
  const doc: RuleDoc = { trigger: rule.trigger, activeTimeInfo: rule.activeTimeInfo, discounts: rule.discounts };
  return {
    name: rule.name, active: b01(rule.active), start_date: rule.activeTimeInfo?.start ?? null, end_date: rule.activeTimeInfo?.end ?? null,
    doc: toJson(doc), revision: rule.revision, updated_date: rule.updatedDate,
  };
}

export async function insertDiscountRule(db: Executor, siteId: string, rule: DiscountRuleRecord): Promise<void> {
  await db.insertInto('discount_rules').values({ id: rule.id, site_id: siteId, usage_count: rule.usageCount, created_date: rule.createdDate, ...ruleColumns(rule) }).execute();
  await bumpPricingVersion(db, siteId);
}

/** Writes the rule when its stored revision is still `expected`; false when it moved on meanwhile. */
export async function updateDiscountRuleRow(db: Executor, siteId: string, rule: DiscountRuleRecord, expected: number): Promise<boolean> {
  const r = await db.updateTable('discount_rules').set(ruleColumns(rule))
    .where('site_id', '=', siteId).where('id', '=', rule.id).where('revision', '=', expected).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await bumpPricingVersion(db, siteId);
  return true;
}

export async function findDiscountRule(db: Executor, siteId: string, id: string): Promise<DiscountRuleRecord | undefined> {
  const row = await findRow(db, 'discount_rules', siteId, id);
  return row ? ruleFromRow(row) : undefined;
}

export const deleteDiscountRuleRow = (db: Executor, siteId: string, id: string) => deleteRow(db, 'discount_rules', siteId, id);
export const countDiscountRules = (db: Executor, siteId: string) => countRows(db, 'discount_rules', siteId);
export const listDiscountRuleRows = async (db: Executor, siteId: string, q: PageQuery) => (await pageRows(db, 'discount_rules', siteId, q)).map(ruleFromRow);

/** Every active rule of the site, oldest first (the pricing setup checks time windows per call). */
export async function listActiveDiscountRules(db: Executor, siteId: string, max: number): Promise<DiscountRuleRecord[]> {
  const rows = await db.selectFrom('discount_rules').selectAll()
    .where('site_id', '=', siteId).where('active', '=', 1)
    .orderBy('created_date').orderBy('id').limit(max).execute();
  return rows.map(ruleFromRow);
}

// ---- coupons ----

function couponFromRow(r: CouponsTable): CouponRecord {
  return { id: r.id, specification: readJson<CouponRecord['specification']>(r.doc), numberOfUsages: r.number_of_usages, createdDate: r.created_date, updatedDate: r.updated_date };
}

function couponColumns(c: CouponRecord, codeKey: string) {
  const s = c.specification;
  return {
    code: s.code, code_key: codeKey, name: s.name, active: b01(s.active !== false), start_time: s.startTime,
    expiration_time: s.expirationTime ?? null, usage_limit: s.usageLimit ?? null, doc: toJson(s), updated_date: c.updatedDate,
  };
}

export async function insertCoupon(db: Executor, siteId: string, c: CouponRecord, codeKey: string): Promise<void> {
  await db.insertInto('coupons').values({ id: c.id, site_id: siteId, number_of_usages: c.numberOfUsages, created_date: c.createdDate, ...couponColumns(c, codeKey) }).execute();
}

export async function updateCouponRow(db: Executor, siteId: string, c: CouponRecord, codeKey: string): Promise<boolean> {
  const r = await db.updateTable('coupons').set(couponColumns(c, codeKey)).where('site_id', '=', siteId).where('id', '=', c.id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findCoupon(db: Executor, siteId: string, id: string): Promise<CouponRecord | undefined> {
  const row = await findRow(db, 'coupons', siteId, id);
  return row ? couponFromRow(row) : undefined;
}

export async function findCouponByCode(db: Executor, siteId: string, codeKey: string): Promise<CouponRecord | undefined> {
  const row = await db.selectFrom('coupons').selectAll().where('site_id', '=', siteId).where('code_key', '=', codeKey).executeTakeFirst();
  return row ? couponFromRow(row) : undefined;
}

export const deleteCouponRow = (db: Executor, siteId: string, id: string) => deleteRow(db, 'coupons', siteId, id);
export const countCoupons = (db: Executor, siteId: string) => countRows(db, 'coupons', siteId);
export const listCouponRows = async (db: Executor, siteId: string, q: PageQuery) => (await pageRows(db, 'coupons', siteId, q)).map(couponFromRow);

/**
 * One guarded statement: counts a use only while the limit leaves room, so concurrent checkouts can
 * never push `number_of_usages` past `usage_limit` (the row lock serializes them on PostgreSQL; SQLite
 * has one writer). False when the coupon is exhausted or gone.
 */
export async function takeCouponUse(db: Executor, siteId: string, id: string, now: string): Promise<boolean> {
  const r = await db.updateTable('coupons')
    .set((eb) => ({ number_of_usages: eb('number_of_usages', '+', 1), updated_date: now }))
    .where('site_id', '=', siteId).where('id', '=', id)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('number_of_usages', '<', eb.ref('usage_limit'))]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- shipping regions ----

interface RegionDoc { destinations: ShippingRegionRecord['destinations']; options: ShippingRegionRecord['options'] }

function shippingFromRow(r: ShippingRegionsTable): ShippingRegionRecord {
  const doc = readJson<RegionDoc>(r.doc);
  return { id: r.id, name: r.name, destinations: doc.destinations, options: doc.options, revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date };
}

function shippingColumns(s: ShippingRegionRecord) {
  const doc: RegionDoc = { destinations: s.destinations, options: s.options };
  return { name: s.name, doc: toJson(doc), revision: s.revision, updated_date: s.updatedDate };
}

export async function insertShippingRegion(db: Executor, siteId: string, s: ShippingRegionRecord): Promise<void> {
  await db.insertInto('shipping_regions').values({ id: s.id, site_id: siteId, created_date: s.createdDate, ...shippingColumns(s) }).execute();
  await bumpPricingVersion(db, siteId);
}

export async function updateShippingRegionRow(db: Executor, siteId: string, s: ShippingRegionRecord, expected: number): Promise<boolean> {
  const r = await db.updateTable('shipping_regions').set(shippingColumns(s))
    .where('site_id', '=', siteId).where('id', '=', s.id).where('revision', '=', expected).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await bumpPricingVersion(db, siteId);
  return true;
}

export async function findShippingRegion(db: Executor, siteId: string, id: string): Promise<ShippingRegionRecord | undefined> {
  const row = await findRow(db, 'shipping_regions', siteId, id);
  return row ? shippingFromRow(row) : undefined;
}

export const deleteShippingRegionRow = (db: Executor, siteId: string, id: string) => deleteRow(db, 'shipping_regions', siteId, id);

/** Every region of the site, oldest first (the order the owner made them; the engine's choice of region does not depend on it). */
export async function listShippingRegionRows(db: Executor, siteId: string, max: number): Promise<ShippingRegionRecord[]> {
  const rows = await db.selectFrom('shipping_regions').selectAll().where('site_id', '=', siteId).orderBy('created_date').orderBy('id').limit(max).execute();
  return rows.map(shippingFromRow);
}

// ---- per-site settings ----

const siteSettings = preparedQuery((db, p: { siteId: string }) => db.selectFrom('cart_site_settings').selectAll().where('site_id', '=', p.siteId));

export async function findSiteSettings(db: Executor, siteId: string): Promise<SiteSettingsRecord | undefined> {
  const row = (await siteSettings.run(db, { siteId })).rows[0];
  if (!row) return undefined;
  return {
    checkout: readJson<StoredCheckoutSettings>(row.checkout_settings),
    pricing: readJson<PricingSettings>(row.pricing_settings),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
  };
}

/**
 * The site's settings row, created with `defaults` when missing and locked until the transaction ends
 * (PostgreSQL; SQLite has one writer), so a read-modify-write of the settings loses no update.
 */
export async function lockSiteSettings(db: Executor, dialect: DialectName, siteId: string, defaults: { checkout: StoredCheckoutSettings; pricing: PricingSettings }, now: string): Promise<SiteSettingsRecord> {
  const created = await db.insertInto('cart_site_settings')
    .values({ site_id: siteId, checkout_settings: toJson(defaults.checkout), pricing_settings: toJson(defaults.pricing), created_date: now, updated_date: now })
    .onConflict((oc) => oc.column('site_id').doNothing()).executeTakeFirst();
  if (Number(created.numInsertedOrUpdatedRows ?? 0n) > 0) await bumpPricingVersion(db, siteId);
  await lockForUpdate(db, dialect, sql`SELECT site_id FROM cart_site_settings WHERE site_id = ${siteId}`);
  const found = await findSiteSettings(db, siteId);
  if (!found) throw new Error('cart_site_settings row vanished inside its transaction');
  return found;
}

export async function updateSiteSettingsRow(db: Executor, siteId: string, settings: { checkout: StoredCheckoutSettings; pricing: PricingSettings }, now: string): Promise<void> {
  await db.updateTable('cart_site_settings')
    .set({ checkout_settings: toJson(settings.checkout), pricing_settings: toJson(settings.pricing), updated_date: now })
    .where('site_id', '=', siteId).execute();
  await bumpPricingVersion(db, siteId);
}
