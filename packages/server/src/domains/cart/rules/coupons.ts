import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { conflict, notFound, violation, ValidationError } from '../../../http/errors.js';
import { isUniqueViolation } from '../../../storage/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { couponCodeKey, couponDiscount } from './coupon-map.js';
import { checkMoney, checkWithEngine } from './engine-check.js';
import { MAX_COUPONS } from './limits.js';
import type { CouponRecord, CouponSpecification } from './model.js';
import { col, queryPage, type Listing, type Page } from './paging.js';
import { isoUtc } from './revision.js';
import type { QueryInput } from './schema.js';
import { countCoupons, deleteCouponRow, findCoupon, findCouponByCode, insertCoupon, listCouponRows, updateCouponRow } from './store.js';

/**
 * Coupons (a Vitrine extension at the platform's `/stores/v2/coupons` paths): a code the buyer
 * enters for one discount. Codes are unique per site regardless of case; uses are counted by the
 * checkout through `recordCouponUse` (setup.ts), never past `usageLimit`.
 */

const couponNotFound = (id: string) => notFound('COUPON_NOT_FOUND', `Coupon ${id} not found`, { id });
const codeTaken = (code: string) => conflict('COUPON_CODE_ALREADY_EXISTS', `A coupon with code ${code} already exists`, { code });

const DISCOUNT_FIELDS = ['moneyOffAmount', 'percentOffRate', 'fixedPriceAmount', 'freeShipping'] as const;

/** Checks a complete specification: exactly one discount, amounts in the site's currency, dates in order. */
function checkSpecification(ctx: RequestContext, s: Partial<CouponSpecification>): CouponSpecification {
  for (const f of ['name', 'code', 'startTime'] as const) if (!s[f]) throw violation(`specification.${f}`, 'is required', 'REQUIRED_FIELD');
  const given = DISCOUNT_FIELDS.filter((f) => s[f] != null && s[f] !== false);
  if (given.length !== 1) {
    throw new ValidationError([{ field: 'specification', description: 'must have exactly one of moneyOffAmount, percentOffRate, fixedPriceAmount, freeShipping', violatedRule: 'ONE_OF_ALIGNMENT', data: { given } }]);
  }
  if (s.fixedPriceAmount != null && !s.scope?.group) throw violation('specification.scope.group', 'is required for a fixed price coupon', 'REQUIRED_FIELD');
  checkMoney(ctx, s.moneyOffAmount, 'specification.moneyOffAmount');
  checkMoney(ctx, s.fixedPriceAmount, 'specification.fixedPriceAmount');
  checkMoney(ctx, s.minimumSubtotal, 'specification.minimumSubtotal');
  const spec: CouponSpecification = {
    ...s as CouponSpecification,
    code: s.code!.trim(),
    startTime: isoUtc(s.startTime)!,
    expirationTime: isoUtc(s.expirationTime),
  };
  if (spec.expirationTime && spec.expirationTime <= spec.startTime) throw violation('specification.expirationTime', 'must be after startTime', 'FORMAT');
  checkWithEngine(ctx, { coupon: { id: 'probe', code: spec.code, name: spec.name, discount: couponDiscount(spec), minimumSubtotal: spec.minimumSubtotal ?? null } }, 'coupon', 'specification');
  return spec;
}

export async function createCoupon(ctx: RequestContext, input: Partial<CouponSpecification>): Promise<CouponRecord> {
  const specification = checkSpecification(ctx, input);
  const now = new Date().toISOString();
  const coupon: CouponRecord = { id: randomUUID(), specification, numberOfUsages: 0, createdDate: now, updatedDate: now };
  const key = couponCodeKey(specification.code);
  return inTransaction(ctx.db, async (trx) => {
    if (await countCoupons(trx, ctx.site.id) >= MAX_COUPONS) throw conflict('MAX_COUPONS_REACHED', `A site has at most ${MAX_COUPONS} coupons`, { max: MAX_COUPONS });
    if (await findCouponByCode(trx, ctx.site.id, key)) throw codeTaken(specification.code);
    try {
      await insertCoupon(trx, ctx.site.id, coupon, key);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(specification.code);
      throw error;
    }
    return coupon;
  });
}

export async function getCoupon(ctx: RequestContext, id: string): Promise<CouponRecord> {
  const coupon = await findCoupon(ctx.db, ctx.site.id, id);
  if (!coupon) throw couponNotFound(id);
  return coupon;
}

/**
 * Updates the fields given; a discount field given replaces the old discount (the four are one choice),
 * null clears an optional field. The usage count is the server's.
 */
export async function updateCoupon(ctx: RequestContext, id: string, patch: Partial<CouponSpecification>): Promise<CouponRecord> {
  return inTransaction(ctx.db, async (trx) => {
    const current = await findCoupon(trx, ctx.site.id, id);
    if (!current) throw couponNotFound(id);
    const base: Partial<CouponSpecification> = { ...current.specification };
    if (DISCOUNT_FIELDS.some((f) => patch[f] !== undefined)) for (const f of DISCOUNT_FIELDS) delete base[f];
    const merged = Object.fromEntries(Object.entries({ ...base, ...patch }).filter(([, v]) => v !== null)) as Partial<CouponSpecification>;
    const specification = checkSpecification(ctx, merged);
    const next: CouponRecord = { ...current, specification, updatedDate: new Date().toISOString() };
    const key = couponCodeKey(specification.code);
    const holder = await findCouponByCode(trx, ctx.site.id, key);
    if (holder && holder.id !== id) throw codeTaken(specification.code);
    try {
      await updateCouponRow(trx, ctx.site.id, next, key);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(specification.code);
      throw error;
    }
    return next;
  });
}

export async function deleteCoupon(ctx: RequestContext, id: string): Promise<void> {
  if (!(await deleteCouponRow(ctx.db, ctx.site.id, id))) throw couponNotFound(id);
}

const COUPONS: Listing<CouponRecord> = {
  kind: 'cart-rules.coupons',
  fields: {
    id: { expr: col('id'), type: 'string' },
    'specification.code': { expr: col('code'), type: 'string' },
    'specification.name': { expr: col('name'), type: 'string' },
    'specification.active': { expr: col('active'), type: 'boolean', storedAs01: true },
    'specification.startTime': { expr: col('start_time'), type: 'date' },
    'specification.expirationTime': { expr: col('expiration_time'), type: 'date' },
    numberOfUsages: { expr: col('number_of_usages'), type: 'number' },
    dateCreated: { expr: col('created_date'), type: 'date' },
  },
  sortable: {
    id: col('id'), 'specification.code': col('code'), 'specification.name': col('name'), 'specification.startTime': col('start_time'),
    'specification.expirationTime': col('expiration_time'), numberOfUsages: col('number_of_usages'), dateCreated: col('created_date'),
  },
  idColumn: col('id'),
  defaultSort: [{ fieldName: 'dateCreated', order: 'DESC' }],
  list: listCouponRows,
};

export function queryCoupons(ctx: RequestContext, query: QueryInput | undefined): Promise<Page<CouponRecord>> {
  return queryPage(ctx, COUPONS, query);
}
