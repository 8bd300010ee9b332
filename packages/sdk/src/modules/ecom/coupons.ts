/**
 * Coupons (`@vitrine/sdk/ecom` -> `coupons`): our extension at the platform's `/stores/v2/coupons`
 * paths. Elevated. Codes are unique per site regardless of case. Rules: docs/pricing-setup.md.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import { cursorQuery } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

export type Coupon = FromWire<wire.Coupon, never>;
export type CouponSpecification = wire.CouponSpecification;

const P = '/stores/v2/coupons';

/** `coupons.createCoupon(specification)` -> `{ id, coupon }`. */
export const createCoupon = defineMethod((client, specification: CouponSpecification) =>
  client.request<{ _id: string; coupon: Coupon }>({ method: 'POST', path: P, payload: { specification } }));

/** `coupons.getCoupon(id)` -> `{ coupon }`. */
export const getCoupon = defineMethod((client, _id: string) =>
  client.request<{ coupon: Coupon }>({ method: 'GET', path: `${P}/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: { id: '_id' } }));

/** What `updateCoupon` changes: the fields given; null clears one. */
export type CouponSpecificationChanges = Partial<{ [K in keyof CouponSpecification]: CouponSpecification[K] | null }>;

/** `coupons.updateCoupon(id, specificationChanges)` -> `{ coupon }`; a discount field replaces the old discount, null clears. */
export const updateCoupon = defineMethod((client, _id: string, specification: CouponSpecificationChanges) =>
  client.request<{ coupon: Coupon }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(_id)}`, payload: { _id, specification }, argumentFields: { id: '_id' } }));

/** `coupons.deleteCoupon(id)`. */
export const deleteCoupon = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${P}/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: { id: '_id' } });
});

/** `coupons.queryCoupons().eq('specification.code', 'WELCOME10').find()`. */
export const queryCoupons = defineMethod((client) =>
  cursorQuery<Coupon, '_id' | 'specification.code' | 'specification.name' | 'specification.active' | 'specification.startTime' | 'specification.expirationTime' | 'numberOfUsages' | 'dateCreated'>(async (query) => {
    const res = await client.request<{ coupons?: Coupon[]; pagingMetadata?: wire.QueryCouponsResponse['pagingMetadata'] }>({ method: 'POST', path: `${P}/query`, payload: { query } });
    return { items: res.coupons ?? [], cursors: res.pagingMetadata?.cursors ?? {}, hasNext: res.pagingMetadata?.hasNext ?? false };
  }));
